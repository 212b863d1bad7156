package testenv

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// FaultProxy is an HTTP/1.1 proxy on 127.0.0.1 between a client and a real
// server (versitygw, Azurite) that injects the faults a network between them
// causes and that a TCP proxy cannot time: an answer lost after the server
// applied the request, a body cut off half way, a slow answer. Each fault is
// armed for the next request that matches, and fires once.
type FaultProxy struct {
	// Endpoint is the proxy's URL, to give the client instead of the server's.
	Endpoint string

	upstream string // host:port of the server
	ln       net.Listener
	client   *http.Client

	mu     sync.Mutex
	faults []*fault
	random *randomFaults
	log    []string // what fired, for failure messages
	closed bool
	conns  map[net.Conn]bool
	sent   Traffic
}

// Traffic is what clients sent through the proxy: the bytes of request
// bodies, and the sources of the server-side copies they asked for (which
// move bytes inside the store without crossing the proxy).
type Traffic struct {
	BodyBytes   int64
	CopySources []string // x-amz-copy-source or x-ms-copy-source, as sent
}

// Traffic returns what was sent through the proxy so far.
func (p *FaultProxy) Traffic() Traffic {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.sent
	t.CopySources = append([]string(nil), t.CopySources...)
	return t
}

// Fault is what the proxy does to one exchange.
type Fault int

const (
	// DropAnswer forwards the request, lets the server apply it, then resets
	// the client's connection instead of answering.
	DropAnswer Fault = iota + 1
	// CutBody answers with the full headers and half of the body, then
	// resets the connection.
	CutBody
	// Slow holds the answer back for the fault's delay before sending it.
	Slow
	// Refuse resets the connection without forwarding the request.
	Refuse
)

func (f Fault) String() string {
	switch f {
	case DropAnswer:
		return "drop-answer"
	case CutBody:
		return "cut-body"
	case Slow:
		return "slow"
	case Refuse:
		return "refuse"
	}
	return "fault(" + strconv.Itoa(int(f)) + ")"
}

type fault struct {
	kind  Fault
	match func(*http.Request) bool
	delay time.Duration
	fired chan struct{}
}

type randomFaults struct {
	every int // one exchange in every
	n     int
	kinds []Fault
	delay time.Duration
	match func(*http.Request) bool
}

// StartFaultProxy starts a proxy in front of the server at upstream (a URL:
// its host and port are used) and stops it when the test ends.
func StartFaultProxy(t testing.TB, upstream string) *FaultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fault proxy: %v", err)
	}
	u, err := url.Parse(upstream)
	if err != nil || u.Host == "" {
		t.Fatalf("fault proxy: upstream %q is not a URL", upstream)
	}
	host := u.Host
	p := &FaultProxy{
		Endpoint: "http://" + ln.Addr().String(),
		upstream: host,
		ln:       ln,
		conns:    map[net.Conn]bool{},
		client: &http.Client{
			Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16},
			// Redirects are the client's business.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Arm makes the next request that match accepts suffer kind (delay is for
// Slow). It returns a channel closed when the fault has fired.
func (p *FaultProxy) Arm(kind Fault, match func(*http.Request) bool, delay time.Duration) <-chan struct{} {
	f := &fault{kind: kind, match: match, delay: delay, fired: make(chan struct{})}
	p.mu.Lock()
	p.faults = append(p.faults, f)
	p.mu.Unlock()
	return f.fired
}

// Randomly makes one matching exchange in every suffer one of kinds, in
// turn, until Calm. A bounded, deterministic sequence: no randomness, so a
// failure reproduces.
func (p *FaultProxy) Randomly(every int, kinds []Fault, delay time.Duration, match func(*http.Request) bool) {
	p.mu.Lock()
	p.random = &randomFaults{every: every, kinds: kinds, delay: delay, match: match}
	p.mu.Unlock()
}

// Calm stops the faults Randomly started and disarms every armed fault.
func (p *FaultProxy) Calm() {
	p.mu.Lock()
	p.random = nil
	p.faults = nil
	p.mu.Unlock()
}

// Fired lists the faults injected so far, in order.
func (p *FaultProxy) Fired() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.log...)
}

// Close stops the proxy and resets its connections.
func (p *FaultProxy) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.ln.Close()
}

func (p *FaultProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			return
		}
		p.conns[c] = true
		p.mu.Unlock()
		go p.handle(c)
	}
}

// take returns the fault for req, if one is armed for it.
func (p *FaultProxy) take(req *http.Request) *fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, f := range p.faults {
		if f.match == nil || f.match(req) {
			p.faults = append(p.faults[:i:i], p.faults[i+1:]...)
			p.log = append(p.log, f.kind.String()+" "+req.Method+" "+req.URL.Path)
			return f
		}
	}
	if r := p.random; r != nil && (r.match == nil || r.match(req)) {
		r.n++
		if r.n%r.every == 0 {
			kind := r.kinds[(r.n/r.every)%len(r.kinds)]
			p.log = append(p.log, kind.String()+" "+req.Method+" "+req.URL.Path)
			return &fault{kind: kind, delay: r.delay, fired: make(chan struct{})}
		}
	}
	return nil
}

func (p *FaultProxy) handle(c net.Conn) {
	defer func() {
		p.mu.Lock()
		delete(p.conns, c)
		p.mu.Unlock()
		c.Close()
	}()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.sent.BodyBytes += int64(len(body))
		for _, h := range []string{"X-Amz-Copy-Source", "X-Ms-Copy-Source"} {
			if src := req.Header.Get(h); src != "" {
				p.sent.CopySources = append(p.sent.CopySources, src)
			}
		}
		p.mu.Unlock()
		// Matchers may read the body (a GCS upload names its object there).
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		f := p.take(req)
		if f != nil && f.kind == Refuse {
			reset(c)
			close(f.fired)
			return
		}
		resp, data, err := p.forward(req, body)
		if err != nil {
			reset(c)
			return
		}
		if f != nil {
			switch f.kind {
			case DropAnswer:
				reset(c)
				close(f.fired)
				return
			case CutBody:
				if len(data) > 1 {
					resp.ContentLength = int64(len(data))
					resp.Body = io.NopCloser(bytes.NewReader(data))
					var head bytes.Buffer
					writeHead(&head, resp)
					c.Write(head.Bytes())
					c.Write(data[:len(data)/2])
					reset(c)
					close(f.fired)
					return
				}
			case Slow:
				time.Sleep(f.delay)
			}
			close(f.fired)
		}
		if req.Method != http.MethodHead {
			// A HEAD answer keeps the object's length.
			resp.ContentLength = int64(len(data))
		}
		resp.Body = io.NopCloser(bytes.NewReader(data))
		resp.TransferEncoding = nil
		if err := resp.Write(c); err != nil {
			return
		}
		if req.Close || resp.Close {
			return
		}
	}
}

// forward sends req to the server as the client sent it (the Host header
// included: signatures cover it) and reads the whole answer.
func (p *FaultProxy) forward(req *http.Request, body []byte) (*http.Response, []byte, error) {
	out, err := http.NewRequest(req.Method, "http://"+p.upstream+req.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	out.Header = req.Header.Clone()
	out.Host = req.Host
	out.ContentLength = int64(len(body))
	resp, err := p.client.Do(out)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	return resp, data, nil
}

// writeHead writes the status line and headers of resp.
func writeHead(w *bytes.Buffer, resp *http.Response) {
	w.WriteString("HTTP/1.1 " + strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode) + "\r\n")
	resp.Header.Del("Transfer-Encoding")
	resp.Header.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	resp.Header.Write(w)
	w.WriteString("\r\n")
}

// reset closes c with a TCP reset, as a network that lost the connection.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// DropNextAnswer lets the server apply the next request with method and
// resets the client's connection instead of answering.
func (p *FaultProxy) DropNextAnswer(method string) <-chan struct{} {
	return p.Arm(DropAnswer, func(r *http.Request) bool { return r.Method == method }, 0)
}

// CutNextBody sends half of the next GET's body, then resets the connection.
func (p *FaultProxy) CutNextBody() <-chan struct{} {
	return p.Arm(CutBody, func(r *http.Request) bool { return r.Method == http.MethodGet }, 0)
}
