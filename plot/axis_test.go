package plot

import (
	"reflect"
	"testing"
)

func TestValueTicks(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
		n      int
		want   []AxisTick
	}{
		{"round steps", -1, 1, 4, []AxisTick{{-1, "-1.0"}, {-0.5, "-0.5"}, {0, "0"}, {0.5, "0.5"}, {1, "1.0"}}},
		{"empty range", 1, 1, 4, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ValueTicks(tc.lo, tc.hi, tc.n); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTimeTicks(t *testing.T) {
	tests := []struct {
		name     string
		w        Window
		absolute bool
		want     []TimeTick
	}{
		{"relative seconds", Window{t0 - 1e8, t0 + 2.1e9}, false, []TimeTick{{t0, "0 s"}, {t0 + 5e8, "0.5 s"}, {t0 + 1e9, "1.0 s"}, {t0 + 15e8, "1.5 s"}, {t0 + 2e9, "2.0 s"}}},
		{"relative hours", Window{t0, t0 + 10*3600e9}, false, []TimeTick{{t0, "0 s"}, {t0 + 3*3600e9, "3 h"}, {t0 + 6*3600e9, "6 h"}, {t0 + 9*3600e9, "9 h"}}},
		{"six days in days, not 43200 s", Window{t0, t0 + 6*86400e9}, false, []TimeTick{{t0, "0 s"}, {t0 + 2*86400e9, "2 d"}, {t0 + 4*86400e9, "4 d"}, {t0 + 6*86400e9, "6 d"}}},
		{"clock times", Window{t0 + 5e8, t0 + 2.5e9}, true, []TimeTick{{t0 + 5e8, "22:13:20.5"}, {t0 + 1e9, "22:13:21.0"}, {t0 + 15e8, "22:13:21.5"}, {t0 + 2e9, "22:13:22.0"}, {t0 + 25e8, "22:13:22.5"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TimeTicks(tc.w, t0, tc.absolute, 3); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
