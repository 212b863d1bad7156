package command

import (
	"fmt"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/render"
)

// progress follows an apply: batches and records done against the plan's
// totals, the rate and the time left. On a terminal it keeps one line at the
// bottom, redrawn in place under the event lines; with a heartbeat (-json:
// batch_progress messages) it reports after every batch and at each tick;
// otherwise it prints nothing of its own.
type progress struct {
	m         *Meta
	terminal  bool
	heartbeat func(render.Progress)

	mu                         sync.Mutex
	batchesTotal, recordsTotal int64
	batchesDone, recordsDone   int64
	start                      time.Time
	sink                       string
	batch                      int64
	drawn                      bool

	done     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

func newProgress(m *Meta, terminal bool, heartbeat func(render.Progress), batchesTotal, recordsTotal int64) *progress {
	p := &progress{
		m: m, terminal: terminal, heartbeat: heartbeat,
		batchesTotal: batchesTotal, recordsTotal: recordsTotal,
		start: m.now(), batch: -1,
		done: make(chan struct{}),
	}
	interval := m.ProgressInterval
	if interval == 0 {
		interval = 10 * time.Second
		if p.terminal {
			interval = time.Second
		}
	}
	if interval > 0 && (p.terminal || p.heartbeat != nil) {
		p.wg.Add(1)
		go p.tick(interval)
	}
	return p
}

func (p *progress) tick(interval time.Duration) {
	defer p.wg.Done()
	defer crash.Report() // run as a goroutine
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.mu.Lock()
			if p.terminal {
				p.drawLocked()
			} else {
				p.heartbeat(p.snapshotLocked())
			}
			p.mu.Unlock()
		}
	}
}

func (p *progress) snapshotLocked() render.Progress {
	elapsed := p.m.now().Sub(p.start)
	s := render.Progress{
		Sink:        p.sink,
		BatchesDone: p.batchesDone, BatchesTotal: p.batchesTotal,
		RecordsDone: p.recordsDone, RecordsTotal: p.recordsTotal,
		ElapsedSeconds: elapsed.Seconds(),
	}
	if p.batch >= 0 {
		b := p.batch
		s.Batch = &b
	}
	if elapsed > 0 && p.recordsDone > 0 {
		s.RecordsPerSecond = float64(p.recordsDone) / elapsed.Seconds()
		eta := float64(int64(float64(max(p.recordsTotal-p.recordsDone, 0)) / s.RecordsPerSecond))
		s.ETASeconds = &eta
	}
	return s
}

// drawLocked redraws the terminal line.
func (p *progress) drawLocked() {
	fmt.Fprintf(p.m.Stdout, "\r\x1b[KApplying: %s", p.snapshotLocked().Line())
	p.drawn = true
}

func (p *progress) clearLocked() {
	if p.drawn {
		fmt.Fprint(p.m.Stdout, "\r\x1b[K")
		p.drawn = false
	}
}

// printf prints an event line above the progress line.
func (p *progress) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	fmt.Fprintf(p.m.Stdout, format, args...)
	if p.terminal {
		p.drawLocked()
	}
}

func (p *progress) started(sink string, batch int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sink, p.batch = sink, batch
}

// committed counts a batch done and reports where the apply stands.
func (p *progress) committed(sink string, batch, records int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.batchesDone++
	p.recordsDone += records
	p.sink, p.batch = sink, batch
	if p.heartbeat != nil {
		p.heartbeat(p.snapshotLocked())
	}
}

// stop ends the heartbeat and clears the terminal line. Safe to call twice.
func (p *progress) stop() {
	p.stopOnce.Do(func() {
		close(p.done)
		p.wg.Wait()
		p.mu.Lock()
		p.clearLocked()
		p.mu.Unlock()
	})
}
