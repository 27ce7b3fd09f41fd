package plot

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// secs makes times t0 + s seconds.
func secs(s ...float64) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = t0 + int64(math.Round(v*1e9))
	}
	return out
}

// sameValues compares value columns, NaN equal to NaN, within tol.
func sameValues(got, want []float64, tol float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.IsNaN(want[i]) != math.IsNaN(got[i]) || !math.IsNaN(want[i]) && math.Abs(got[i]-want[i]) > tol {
			return false
		}
	}
	return true
}

var nan = math.NaN()

func TestDerivedByHand(t *testing.T) {
	s := Series{Name: "s", T: secs(0, 1, 3, 3, 4, 6), V: []float64{1, 3, 7, 9, nan, 0}}
	tests := []struct {
		name  string
		got   Series
		wantT []int64
		wantV []float64
	}{
		// Steps: (3-1)/1, (7-3)/2, a repeated time dropped, a gap both sides.
		{"derivative", Derivative(s), secs(1, 3, 4, 6), []float64{2, 2, nan, nan}},
		// Trapezoids: 2, 2+10, then a zero-length step adds 0, the gap and
		// the step after it add nothing.
		{"integral", Integral(s), s.T, []float64{0, 2, 12, 12, nan, 12}},
		{"scale and offset", ScaleOffset(s, -2, 0.5), s.T, []float64{-1.5, -5.5, -13.5, -17.5, nan, 0.5}},
		{"moving average of 2", MovingAverage(s, 2), s.T, []float64{1, 2, 5, 8, nan, 4.5}},
		{"moving average of 1 is the input", MovingAverage(s, 1), s.T, s.V},
		{"moving average longer than the series", MovingAverage(s, 100), s.T, []float64{1, 2, 11.0 / 3, 5, nan, 4}},
		{"derivative of one point", Derivative(Series{T: secs(0), V: []float64{1}}), nil, nil},
		{"integral of a constant", Integral(Series{T: secs(0, 0.5, 2.5), V: []float64{3, 3, 3}}), secs(0, 0.5, 2.5), []float64{0, 1.5, 7.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !reflect.DeepEqual(tc.got.T, tc.wantT) || !sameValues(tc.got.V, tc.wantV, 1e-12) {
				t.Errorf("got %v %v\nwant %v %v", tc.got.T, tc.got.V, tc.wantT, tc.wantV)
			}
		})
	}
	if s.V[0] != 1 || s.T[0] != t0 {
		t.Error("an input was modified")
	}
}

func TestJoinNearest(t *testing.T) {
	a := Series{T: secs(0, 1, 2, 3, 10), V: []float64{0, 1, 2, 3, 10}}
	tests := []struct {
		name string
		b    Series
		want []float64 // b's values at a's times
	}{
		{"same times", a, a.V},
		{"nearest", Series{T: secs(0.4, 1.5, 2.6, 9), V: []float64{4, 15, 26, 90}}, []float64{4, 15, 15, 26, 90}},
		{"earlier on a tie", Series{T: secs(0.5, 1.5, 2.6, 9), V: []float64{5, 15, 26, 90}}, []float64{5, 5, 15, 26, 90}},
		{"b starts late", Series{T: secs(5, 6), V: []float64{5, 6}}, []float64{5, 5, 5, 5, 6}},
		{"b ends early", Series{T: secs(-3, -1), V: []float64{-3, -1}}, []float64{-1, -1, -1, -1, -1}},
		{"repeated times in b", Series{T: secs(1, 1, 2), V: []float64{7, 8, 9}}, []float64{7, 8, 9, 9, 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt, va, vb := JoinNearest(a, tc.b)
			if !reflect.DeepEqual(tt, a.T) || !reflect.DeepEqual(va, a.V) || !reflect.DeepEqual(vb, tc.want) {
				t.Errorf("got %v %v %v, want b values %v", tt, va, vb, tc.want)
			}
			if d := Difference(a, tc.b); !reflect.DeepEqual(d.T, a.T) || d.V[4] != a.V[4]-tc.want[4] {
				t.Errorf("difference %v", d.V)
			}
		})
	}
	if tt, _, _ := JoinNearest(a, Series{}); tt != nil {
		t.Error("a join with an empty series has points")
	}
}

// TestDerivedIdentities checks numerical identities on a smooth signal
// sampled irregularly: the derivative of the integral is the mean of
// neighbouring samples, close to the input; the integral of the derivative
// is the input less its value at the derivative's start; the derivative of
// sin is cos; the integral of a linear ramp is exact.
func TestDerivedIdentities(t *testing.T) {
	const n = 20_000
	s := Series{T: make([]int64, n), V: make([]float64, n)}
	var tt float64
	for i := range n {
		tt += 0.001 + 0.0005*float64(i%3) // 1-2 ms steps
		s.T[i] = t0 + int64(math.Round(tt*1e9))
		s.V[i] = math.Sin(float64(s.T[i]-t0) / 1e9)
	}
	x := func(i int) float64 { return float64(s.T[i]-t0) / 1e9 }
	tests := []struct {
		name string
		got  Series
		want func(i int) float64 // at the got's point i
		tol  float64
	}{
		{"deriv(integ(s)) ≈ s", Derivative(Integral(s)), func(i int) float64 { return s.V[i+1] }, 1e-3},
		{"deriv(integ(s)) = mean of neighbours", Derivative(Integral(s)), func(i int) float64 { return (s.V[i] + s.V[i+1]) / 2 }, 1e-9},
		// Within the change over one step (≤ 2 ms here).
		{"integ(deriv(s)) ≈ s − s[1]", Integral(Derivative(s)), func(i int) float64 { return s.V[i+1] - s.V[1] }, 2e-3},
		{"deriv(sin) ≈ cos", Derivative(s), func(i int) float64 { return math.Cos(x(i + 1)) }, 1e-3},
		{"integ(sin) ≈ 1 − cos", Integral(s), func(i int) float64 { return math.Cos(x(0)) - math.Cos(x(i)) }, 1e-6},
		{"avg(s, 3) ≈ s", MovingAverage(s, 3), func(i int) float64 { return s.V[i] }, 5e-3},
		{"diff(s, s) = 0", Difference(s, s), func(int) float64 { return 0 }, 0},
		{"scale(s, 2, 1) − s = s + 1", Difference(ScaleOffset(s, 2, 1), s), func(i int) float64 { return s.V[i] + 1 }, 1e-12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			worst := 0.0
			for i, v := range tc.got.V {
				worst = max(worst, math.Abs(v-tc.want(i)))
			}
			if len(tc.got.V) < n-1 || worst > tc.tol {
				t.Errorf("%d points, worst error %g, want ≤ %g", len(tc.got.V), worst, tc.tol)
			}
		})
	}
	// A ramp v = 3t: the trapezoidal integral is exact, 1.5 t².
	ramp := ScaleOffset(Series{T: s.T, V: make([]float64, n)}, 0, 0)
	for i := range ramp.V {
		ramp.V[i] = 3 * x(i)
	}
	in := Integral(ramp)
	if got, want := in.V[n-1], 1.5*(x(n-1)*x(n-1)-x(0)*x(0)); math.Abs(got-want) > 1e-9*want {
		t.Errorf("integral of a ramp %v, want %v", got, want)
	}
}

func TestParseExpr(t *testing.T) {
	tests := []struct {
		in      string
		want    string // String() of the parse
		paths   []string
		wantErr string
	}{
		{"/odom.pose.pose.position.x", "/odom.pose.pose.position.x", []string{"/odom.pose.pose.position.x"}, ""},
		{" deriv( /odom.twist.twist.linear.x ) ", "deriv(/odom.twist.twist.linear.x)", []string{"/odom.twist.twist.linear.x"}, ""},
		{"Derivative(/a.x)", "deriv(/a.x)", []string{"/a.x"}, ""},
		{"diff(/a.x,/b.y)", "diff(/a.x, /b.y)", []string{"/a.x", "/b.y"}, ""},
		{"scale(/a.x, 2)", "scale(/a.x, 2)", []string{"/a.x"}, ""},
		{"scale(/a.x, -1e3, 0.5)", "scale(/a.x, -1000, 0.5)", []string{"/a.x"}, ""},
		{"deriv(avg(/j.position[shoulder_pan], 5))", "deriv(avg(/j.position[shoulder_pan], 5))", []string{"/j.position[shoulder_pan]"}, ""},
		{"diff(/tf.transforms[child_frame_id=a,b].x, /a.x)", "diff(/tf.transforms[child_frame_id=a,b].x, /a.x)", []string{"/tf.transforms[child_frame_id=a,b].x", "/a.x"}, ""},
		{"integ(diff(/a.x, /a.x))", "integ(diff(/a.x, /a.x))", []string{"/a.x"}, ""},
		{"foo(/a.x)", "", nil, "unknown function"},
		{"deriv(/a.x", "", nil, "missing )"},
		{"deriv()", "", nil, "wrong arguments"},
		{"deriv(/a.x, 2)", "", nil, "wrong arguments"},
		{"scale(/a.x)", "", nil, "wrong arguments"},
		{"scale(/a.x, two)", "", nil, "not a number"},
		{"avg(/a.x, 2.5)", "", nil, "whole number"},
		{"avg(/a.x, 0)", "", nil, "whole number"},
		{"deriv(/a.x) junk", "", nil, "unexpected"},
		{"diff(, /a.x)", "", nil, "path is missing"},
		{"/a.x(", "", nil, "unexpected ("},
		{"1deriv(/a.x)", "", nil, "unexpected ("},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			e, err := ParseExpr(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.String() != tc.want || !reflect.DeepEqual(e.Paths(), tc.paths) {
				t.Errorf("got %q %q, want %q %q", e, e.Paths(), tc.want, tc.paths)
			}
		})
	}
}

func TestSplitXY(t *testing.T) {
	tests := []struct {
		in   string
		x, y string
		ok   bool
	}{
		{"/odom.pose.pose.position.x vs /odom.pose.pose.position.y", "/odom.pose.pose.position.x", "/odom.pose.pose.position.y", true},
		{"integ(/a.x) vs deriv(/b.y)", "integ(/a.x)", "deriv(/b.y)", true},
		{"/a.x", "", "", false},
		{"/a.names[x vs y].v", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			x, y, ok := SplitXY(tc.in)
			if x != tc.x || y != tc.y || ok != tc.ok {
				t.Errorf("got %q %q %v", x, y, ok)
			}
		})
	}
}

func TestExprEval(t *testing.T) {
	a := Series{T: secs(0, 1, 2), V: []float64{0, 2, 6}}
	b := Series{T: secs(0, 1, 2), V: []float64{1, 1, 1}}
	leaf := func(p string) (Series, bool) {
		switch p {
		case "/a":
			return a, true
		case "/b":
			return b, true
		}
		return Series{}, false
	}
	tests := []struct {
		in      string
		wantV   []float64
		wantErr string
	}{
		{"deriv(diff(/a, /b))", []float64{2, 4}, ""},
		{"offset(scale(/a, 0.5), -1)", []float64{-1, 0, 2}, ""},
		{"integ(/b)", []float64{0, 1, 2}, ""},
		{"avg(/a, 2)", []float64{0, 1, 4}, ""},
		{"deriv(/c)", nil, "no series for /c"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			e, err := ParseExpr(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			s, err := e.Eval(leaf)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !sameValues(s.V, tc.wantV, 1e-12) || s.Name != e.String() {
				t.Errorf("got %v %q (%v), want %v", s.V, s.Name, err, tc.wantV)
			}
		})
	}
}

// FuzzParseExpr parses anything without panicking, and what it accepts
// prints in a form that parses back to the same expression.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"/odom.pose.pose.position.x", "deriv(/a.x)", "diff(/a.x, /b.y)", "scale(/a.x, -2, 1e3)",
		"avg(integ(/j.position[shoulder_pan]), 5)", "offset(/tf.transforms[child_frame_id=a,b].x, 1)", "deriv(", ")", "a vs b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			return
		}
		again, err := ParseExpr(e.String())
		if err != nil || again.String() != e.String() {
			t.Fatalf("%q parses to %q, which parses to %v (%v)", s, e.String(), again, err)
		}
	})
}
