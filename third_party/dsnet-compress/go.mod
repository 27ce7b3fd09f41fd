module github.com/dsnet/compress

go 1.9
