package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/streamctl/streamctl/providers/mem"
)

// TestMoveLeftovers: a folder under _streamctl/ is what an interrupted move
// left only when every file in it is a manifest or an index that the sink
// holds too.
func TestMoveLeftovers(t *testing.T) {
	ours := []string{"_streamctl/orders/0.json", "_streamctl/orders/1.json", "_streamctl/orders/index-0.json"}
	for _, tc := range []struct {
		name  string
		files []string
		want  []string
	}{
		{"nothing else", nil, nil},
		{"copies under the new name", []string{"_streamctl/orders_v2/0.json", "_streamctl/orders_v2/1.json"}, []string{"orders_v2"}},
		{"some copies of an index", []string{"_streamctl/v3/index-0.json", "_streamctl/v3/1.json"}, []string{"v3"}},
		{"a batch the other sink wrote itself", []string{"_streamctl/orders_v2/0.json", "_streamctl/orders_v2/2.json"}, nil},
		{"a file that is no manifest", []string{"_streamctl/orders_v2/0.json", "_streamctl/orders_v2/notes.txt"}, nil},
		{"two folders", []string{"_streamctl/a/0.json", "_streamctl/b/1.json", "_streamctl/c/7.json"}, []string{"a", "b"}},
		{"the owner record and a probe", []string{"_streamctl/owner.json", "_streamctl/.conditional-probe-12"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := mem.New("dest")
			for _, k := range append(slices.Clone(ours), tc.files...) {
				if _, err := s.PutIfAbsent(ctx, k, []byte("{}")); err != nil {
					t.Fatal(err)
				}
			}
			got, err := moveLeftovers(ctx, s, "orders")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("moveLeftovers = %v, want %v", got, tc.want)
			}
		})
	}
}
