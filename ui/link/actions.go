package link

import "github.com/bagscope/bagscope/plot"

// Actions are what the views offer each other. A view sets the actions it
// offers when it is built; each is nil until then (or for a recording
// whose window lacks that view), so callers check. An action that shows
// something also selects its view's tab.
//
// A new view that others should drive adds a field here and sets it when
// built; the callers need not know the view.
type Actions struct {
	// AddSeries plots a field path ("/imu.linear_acceleration.x"): the
	// Plots view.
	AddSeries func(path string)
	// AddComputed plots series a view computed (each plot.Series named,
	// its points in time order) in a new plot: the Plots view.
	AddComputed func(set []plot.Series)
	// ShowChunk shows the chunk whose record is at file offset pos: the
	// Chunk view.
	ShowChunk func(pos int64)
	// ShowRecord selects the record holding a file offset: the Records
	// view.
	ShowRecord func(off int64)
	// ShowMessageRecord selects a message's record (its chunk's record
	// offset, its offset in the chunk's data): the Records view.
	ShowMessageRecord func(chunkPos int64, off uint32)
	// StepMessage selects the previous (-1) or next (+1) message of the
	// followed topics: the Message view.
	StepMessage func(delta int)
	// SaveRepaired shows the Findings tab and, when the recording has
	// findings and its format can be repaired, asks where to save a
	// repaired copy: the Findings view.
	SaveRepaired func()
	// AddDefinitionFolder asks for a folder of ROS 2 message definitions
	// and reopens the recording with it when it lacked one: the window.
	AddDefinitionFolder func()
	// CompareWith shows the Diff tab comparing the recording with the
	// one at path (a file, a folder or a URL): the Diff view.
	CompareWith func(path string)
	// ChooseCompare asks for the recording to compare with (File ›
	// Compare With…): the window.
	ChooseCompare func()
}
