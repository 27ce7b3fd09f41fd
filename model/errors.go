package model

import (
	"errors"
	"io/fs"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/ros1"
)

// Hint returns a sentence that tells what to do about an error from Open,
// or "" when there is nothing useful to add.
func Hint(err error) string {
	switch {
	case errors.Is(err, remote.ErrExpired):
		return "The presigned URL has expired: ask whoever shared it for a new one. (Recent files keep URLs without their signatures, so a URL reopened from them needs a new one too.)"
	case errors.Is(err, remote.ErrForbidden):
		return "The server refused the request: check the credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, …) or the URL's signature."
	case errors.Is(err, bag.ErrRemoteScan):
		return "The remote file has no summary or index bagscope can use, so it can only be read whole."
	case errors.Is(err, ros1.ErrUnindexed):
		return "This bag was not closed cleanly, so it has no index, and scanning the file did not get around that. `bagscope fix FILE OUT.bag` writes an indexed copy with every message it could read."
	case errors.Is(err, bag.ErrUnknownFormat), errors.Is(err, ros1.ErrNotBag):
		return "bagscope reads ROS 1 bags (.bag, .bag.active) and MCAP files (.mcap); this file is neither, or its first bytes are damaged. ROS 2 .db3 folders are not supported yet."
	case errors.Is(err, ros1.ErrUnsupportedVersion):
		return "Only version 2.0 bags are supported; `rosbag fix` can migrate older ones."
	case errors.Is(err, ros1.ErrTruncated):
		return "The file ends early: it may have been cut off while copying or recording. `bagscope fix FILE OUT.bag` writes a copy with every complete message."
	case errors.Is(err, ros1.ErrUnsupportedCompression):
		return "The chunks use a compression bagscope does not know (it reads none, bz2 and lz4)."
	case errors.Is(err, ros1.ErrTooLarge):
		return "A length in the file is implausibly large: the file is probably damaged."
	case errors.Is(err, ros1.ErrMalformed):
		return "The file does not follow the bag format at that point: it is probably damaged."
	case errors.Is(err, fs.ErrNotExist):
		return "The file does not exist (any more): check the path."
	case errors.Is(err, fs.ErrPermission):
		return "You are not allowed to read this file."
	}
	return ""
}
