package sceneview

import (
	"fmt"
	"image"
	"math"
	"os"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/scene"
)

// One wheel notch (a scroll of wheelNotch, as GLFW reports it under X11)
// zooms by wheelStep, as the Sensor view's zoom does.
const (
	wheelNotch = 25
	wheelStep  = 1.2
)

// sceneCanvas draws a scene with the software renderer and moves its
// camera with the mouse: drag orbits, right- or middle-drag (or
// shift-drag) pans, the wheel zooms, a click picks the nearest point.
type sceneCanvas struct {
	widget.BaseWidget

	mu  sync.Mutex // guards what the raster's generator reads: the painter may call it off the UI goroutine
	cam scene.Camera
	s   *scene.Scene
	r   scene.Renderer
	// pixel size of the last frame, and its scale (pixels per unit).
	pw, ph int

	raster *canvas.Raster
	button desktop.MouseButton
	mod    fyne.KeyModifier

	// OnPick is told the picked point (ok false: none near the click).
	OnPick func(cloud, point int, ok bool)
	// OnMoved is told the camera moved by the user (a view button's
	// choice ends).
	OnMoved func()
	// Frames counts frames drawn (tests).
	Frames int
	// The frames and render time of the second being timed.
	tStart  time.Time
	tFrames int
	tRender time.Duration
}

var (
	_ fyne.Draggable    = (*sceneCanvas)(nil)
	_ fyne.Scrollable   = (*sceneCanvas)(nil)
	_ fyne.Tappable     = (*sceneCanvas)(nil)
	_ desktop.Mouseable = (*sceneCanvas)(nil)
)

func newSceneCanvas() *sceneCanvas {
	c := &sceneCanvas{cam: scene.DefaultCamera()}
	c.r.Grid = 10 // a step that suits the distance
	c.raster = canvas.NewRaster(c.draw)
	c.ExtendBaseWidget(c)
	return c
}

func (c *sceneCanvas) draw(w, h int) image.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pw, c.ph = w, h
	c.Frames++
	cam := c.cam
	t0 := time.Now()
	img := c.r.Render(c.s, &cam, w, h)
	if timingOn {
		c.timing(w, h, time.Since(t0))
	}
	return img
}

// timingOn is BAGSCOPE_TIMING (as the window's own timing): each second in
// which the 3D tab drew, it says on stderr how many frames it drew and
// what the renderer took, to measure the real window's frame rate (issue
// 26: at least 20 frames/s with 300,000 points).
var timingOn = os.Getenv("BAGSCOPE_TIMING") != ""

func (c *sceneCanvas) timing(w, h int, took time.Duration) {
	now := time.Now()
	if c.tStart.IsZero() || now.Sub(c.tStart) > 2*time.Second {
		c.tStart, c.tFrames, c.tRender = now, 0, 0
	}
	c.tFrames++
	c.tRender += took
	if el := now.Sub(c.tStart); el >= time.Second {
		n := 0
		if c.s != nil {
			n = c.s.Count()
		}
		fmt.Fprintf(os.Stderr, "bagscope: timing: 3D %d frames in %.3f s = %.1f frames/s at %dx%d, %d points, render %.1f ms/frame\n",
			c.tFrames, el.Seconds(), float64(c.tFrames)/el.Seconds(), w, h, n, float64(c.tRender.Microseconds())/1000/float64(c.tFrames))
		c.tStart, c.tFrames, c.tRender = now, 0, 0
	}
}

// CreateRenderer is part of fyne.Widget.
func (c *sceneCanvas) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.raster)
}

// SetScene shows s.
func (c *sceneCanvas) SetScene(s *scene.Scene) {
	c.mu.Lock()
	c.s = s
	c.mu.Unlock()
	c.raster.Refresh()
}

// Camera returns the camera.
func (c *sceneCanvas) Camera() scene.Camera {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cam
}

// SetCamera moves the camera.
func (c *sceneCanvas) SetCamera(cam scene.Camera) {
	c.mu.Lock()
	c.cam = cam
	c.mu.Unlock()
	c.raster.Refresh()
}

// move changes the camera with f and redraws.
func (c *sceneCanvas) move(f func(cam *scene.Camera)) {
	c.mu.Lock()
	f(&c.cam)
	c.mu.Unlock()
	c.raster.Refresh()
}

// scale is the pixels per Fyne unit of the drawn image.
func (c *sceneCanvas) scale() float64 {
	c.mu.Lock()
	pw := c.pw
	c.mu.Unlock()
	if w := c.Size().Width; w > 0 && pw > 0 {
		return float64(pw) / float64(w)
	}
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil {
		return float64(cv.Scale())
	}
	return 1
}

// pixelSize is the image's size in pixels (a guess before it is laid
// out).
func (c *sceneCanvas) pixelSize() (int, int) {
	if c.Size().Width <= 0 {
		return 1000, 600
	}
	k := c.scale()
	return max(int(float64(c.Size().Width)*k+0.5), 1), c.pixelHeight()
}

// pixelHeight is the image's height in pixels.
func (c *sceneCanvas) pixelHeight() int {
	return max(int(float64(c.Size().Height)*c.scale()+0.5), 1)
}

// MouseDown remembers the button and modifiers of a drag.
func (c *sceneCanvas) MouseDown(e *desktop.MouseEvent) { c.button, c.mod = e.Button, e.Modifier }

// MouseUp is part of desktop.Mouseable.
func (c *sceneCanvas) MouseUp(*desktop.MouseEvent) {}

func (c *sceneCanvas) panning() bool {
	return c.button == desktop.MouseButtonSecondary || c.button == desktop.MouseButtonTertiary || c.mod&fyne.KeyModifierShift != 0
}

// Dragged orbits, or pans with the right or middle button or shift.
func (c *sceneCanvas) Dragged(e *fyne.DragEvent) {
	k := c.scale()
	dx, dy := float64(e.Dragged.DX)*k, float64(e.Dragged.DY)*k
	h := c.pixelHeight()
	c.move(func(cam *scene.Camera) {
		if c.panning() {
			cam.Pan(dx, dy, h)
		} else {
			cam.Orbit(dx, dy)
		}
	})
	if c.OnMoved != nil {
		c.OnMoved()
	}
}

// DragEnd ends a drag.
func (c *sceneCanvas) DragEnd() { c.button, c.mod = 0, 0 }

// Scrolled zooms: up nearer.
func (c *sceneCanvas) Scrolled(e *fyne.ScrollEvent) {
	if e.Scrolled.DY == 0 {
		return
	}
	f := math.Pow(wheelStep, -float64(e.Scrolled.DY)/wheelNotch)
	c.move(func(cam *scene.Camera) { cam.Zoom(f) })
}

// Tapped picks the point nearest the click.
func (c *sceneCanvas) Tapped(e *fyne.PointEvent) {
	if c.OnPick == nil {
		return
	}
	k := c.scale()
	c.mu.Lock()
	s, cam, w, h := c.s, c.cam, c.pw, c.ph
	c.mu.Unlock()
	if w == 0 {
		w, h = int(float64(c.Size().Width)*k), c.pixelHeight()
	}
	ci, pi, ok := scene.Pick(s, &cam, w, h, float64(e.Position.X)*k, float64(e.Position.Y)*k, 6*k)
	c.OnPick(ci, pi, ok)
}
