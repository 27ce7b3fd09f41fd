package rosmsg

import "sync"

// Cache holds compiled plans keyed by (type, md5sum, definition), or by
// (schema encoding, message encoding, type, schema text). It is safe
// for concurrent use; each key is compiled once, even when several goroutines
// ask for it at the same time. The zero value is ready to use.
type Cache struct {
	mu    sync.Mutex
	plans map[cacheKey]*cacheEntry
}

type cacheKey struct{ schemaEnc, msgEnc, typ, md5, def string }

type cacheEntry struct {
	once sync.Once
	plan *Plan
	err  error
}

// Get returns the plan for a connection's type, md5sum and message_definition,
// compiling it on first use. A compile error is cached too. The md5sum is part
// of the key only; compare it with Plan.CheckMD5.
func (c *Cache) Get(typ, md5sum, definition string) (*Plan, error) {
	return c.get(cacheKey{typ: typ, md5: md5sum, def: definition}, func() (*Plan, error) { return Compile(typ, definition) })
}

// GetSchema returns the plan CompileSchema gives for a schema, compiling it on
// first use; errors (ErrUnsupportedEncoding among them) are cached too.
func (c *Cache) GetSchema(schemaEncoding, messageEncoding, typ, text string) (*Plan, error) {
	k := cacheKey{schemaEnc: schemaEncoding, msgEnc: messageEncoding, typ: typ, def: text}
	return c.get(k, func() (*Plan, error) { return CompileSchema(schemaEncoding, messageEncoding, typ, text) })
}

func (c *Cache) get(k cacheKey, compile func() (*Plan, error)) (*Plan, error) {
	c.mu.Lock()
	if c.plans == nil {
		c.plans = make(map[cacheKey]*cacheEntry)
	}
	e, ok := c.plans[k]
	if !ok {
		e = new(cacheEntry)
		c.plans[k] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.plan, e.err = compile() })
	return e.plan, e.err
}

// Len returns the number of cached entries.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.plans)
}
