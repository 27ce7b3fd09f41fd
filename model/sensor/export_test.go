package sensor

// The helpers the external tests (package sensor_test) check directly.
var (
	Finite     = finite
	Float32s   = float32s
	SeverityOf = severityOf
)

// CompressedDepthHeader is compressedDepthHeader for the external tests.
const CompressedDepthHeader = compressedDepthHeader
