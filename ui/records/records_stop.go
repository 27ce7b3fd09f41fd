package records

// Stop cancels the record indexing, if it is running: when the window
// closes, a million-record index must not go on being built for nobody.
func (p *recordsPanel) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
	}
}
