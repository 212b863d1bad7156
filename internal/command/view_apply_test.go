package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
)

// TestApplyViewsRenderEveryEvent: both apply views write something for each
// of the engine's events, which engine.AllEvents lists (and an engine test
// keeps complete), so that a new event no view handles fails here.
func TestApplyViewsRenderEveryEvent(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		var out bytes.Buffer
		m := &Meta{Streams: Streams{Stdout: &out, Stderr: &out, ProgressInterval: -1,
			Now: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }}}
		v := m.newApplyView(asJSON, true)
		v.running(1, 1)
		for _, ev := range engine.AllEvents() {
			out.Reset()
			v.event(ev, []string{"a"})
			if out.Len() == 0 {
				t.Errorf("json=%v: the apply view writes nothing for %T", asJSON, ev)
			}
		}
		v.stopped()
	}
}

// TestApplyViewsRenderMoved: the move of a sink (a moved block) is reported
// in both views.
func TestApplyViewsRenderMoved(t *testing.T) {
	ev := engine.Moved{Sink: "orders_v2", From: "orders"}
	var out bytes.Buffer
	m := &Meta{Streams: Streams{Stdout: &out, Stderr: &out, ProgressInterval: -1}}
	v := m.newApplyView(false, true)
	v.running(1, 1)
	v.event(ev, nil)
	v.stopped()
	if want := "\nsink.orders_v2: moved from sink.orders\n"; out.String() != want {
		t.Errorf("human view: %q, want %q", out.String(), want)
	}

	out.Reset()
	v = m.newApplyView(true, true)
	v.running(1, 1)
	out.Reset() // the version message
	v.event(ev, nil)
	v.stopped()
	var msg struct {
		Level   string `json:"@level"`
		Message string `json:"@message"`
		Type    string `json:"type"`
		Move    struct{ Sink, From string }
	}
	if err := json.Unmarshal(out.Bytes(), &msg); err != nil {
		t.Fatalf("json view: %v: %s", err, out.String())
	}
	got := fmt.Sprintf("%s %s %q %s<-%s", msg.Level, msg.Type, msg.Message, msg.Move.Sink, msg.Move.From)
	if want := `info sink_moved "sink.orders_v2: moved from sink.orders" orders_v2<-orders`; got != want {
		t.Errorf("json view: %s, want %s", got, want)
	}
}
