package plot

// t0 is the tests' start time, in nanoseconds since the epoch.
const t0 = int64(1_700_000_000_000_000_000)
