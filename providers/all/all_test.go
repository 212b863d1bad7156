package all

import "testing"

// TestKinds checks what the loader and the commands rely on without checking:
// one kind per type, and every role it declares can be opened.
func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if k.Type == "" || seen[k.Type] {
			t.Errorf("kind %q: empty or declared twice", k.Type)
		}
		seen[k.Type] = true
		if k.Source == nil && k.Destination == nil && k.State == nil {
			t.Errorf("kind %s plays no role", k.Type)
		}
		if r := k.Source; r != nil && (r.Open == nil || r.Config == nil) {
			t.Errorf("kind %s: source without Open or Config", k.Type)
		}
		if r := k.Destination; r != nil && (r.Open == nil || r.Location == nil || r.Config == nil) {
			t.Errorf("kind %s: destination without Open, Location or Config", k.Type)
		}
		if r := k.State; r != nil && ((r.Open == nil) == (r.File == nil) || r.Config == nil) {
			t.Errorf("kind %s: state needs Config and exactly one of Open and File", k.Type)
		}
	}
}
