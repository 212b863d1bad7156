package testenv

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// RESTCatalog is an Iceberg REST catalog on 127.0.0.1, started by a test:
// the routes of the Iceberg REST OpenAPI spec that a writer uses (config,
// OAuth2 tokens, namespaces, tables: load, create, commit), with its
// request and response bodies and error model, served from iceberg-go's SQL
// catalog over a SQLite file. No REST catalog server installs here from the
// Go module proxy, npm or Debian (Polaris, Nessie, Gravitino and Unity are
// JVM services; Lakekeeper is Rust), so this is what the tests talk to.
//
// Like a real server it checks a commit's requirements against the table's
// current metadata and answers 409 (CommitFailedException) when one fails,
// and it takes one commit per table at a time.
type RESTCatalog struct {
	URL string // http://127.0.0.1:PORT, the catalog's uri (the client adds /v1)

	// ClientID and ClientSecret are the OAuth2 client credentials the token
	// route accepts (credential = "ID:SECRET"); Token is a bearer token
	// accepted as it is. A request with neither is refused with 401.
	ClientID, ClientSecret, Token string

	cat    *sqlcat.Catalog
	db     *sql.DB
	srv    *httptest.Server
	commit sync.Mutex

	issued sync.Map     // tokens handed out by the token route
	tokens atomic.Int64 // how many

	// down makes every route answer 503, as a catalog in an outage does.
	down atomic.Bool
	// commitsLeft, when positive, counts the table commits that still
	// answer; the one that brings it to zero is made and its answer lost
	// (503), and the catalog is down from then on.
	commitsLeft atomic.Int64

	warehouse atomic.Value // the warehouse the last config request named

	commits   atomic.Int64 // table commits made
	conflicts atomic.Int64 // table commits refused with 409
}

// StartRESTCatalog starts a REST catalog with its SQLite database in a
// fresh temporary directory, and stops it when the test ends.
func StartRESTCatalog(t testing.TB) *RESTCatalog {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "rest-catalog.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := sqlcat.NewCatalog("rest", db, sqlcat.SQLite, ice.Properties{})
	if err != nil {
		db.Close()
		t.Fatalf("the REST catalog's SQL catalog: %v", err)
	}
	c := &RESTCatalog{cat: cat, db: db, ClientID: "streamctl", ClientSecret: "s3cr3t-client", Token: "t0ken-bearer"}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	c.URL = c.srv.URL
	t.Cleanup(func() {
		c.srv.Close()
		db.Close()
	})
	return c
}

// SetDown starts (true) or ends (false) an outage: every route answers 503.
func (c *RESTCatalog) SetDown(down bool) { c.down.Store(down) }

// LoseAnswerAfter makes the catalog commit n more table commits, lose the
// answer of the n-th (503 after it is made) and go down.
func (c *RESTCatalog) LoseAnswerAfter(n int64) { c.commitsLeft.Store(n) }

// Commits is the number of table commits made; Conflicts the number refused
// with 409 because a requirement failed.
func (c *RESTCatalog) Commits() int64   { return c.commits.Load() }
func (c *RESTCatalog) Conflicts() int64 { return c.conflicts.Load() }

// Warehouse is the warehouse the last client named when it fetched the
// catalog's configuration ("" for none).
func (c *RESTCatalog) Warehouse() string {
	w, _ := c.warehouse.Load().(string)
	return w
}

// Catalog is the SQL catalog behind the server, to read what it holds.
func (c *RESTCatalog) Catalog() catalog.Catalog { return c.cat }

// errorModel is the spec's IcebergErrorResponse.
type errorModel struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    int    `json:"code"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, code int, typ, format string, args ...any) {
	var e errorModel
	e.Error.Message, e.Error.Type, e.Error.Code = fmt.Sprintf(format, args...), typ, code
	writeJSON(w, code, e)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func (c *RESTCatalog) serve(w http.ResponseWriter, r *http.Request) {
	if c.down.Load() {
		writeError(w, http.StatusServiceUnavailable, "ServiceUnavailableException", "the catalog is down")
		return
	}
	parts := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
	for i, p := range parts {
		parts[i], _ = url.PathUnescape(p)
	}
	if len(parts) < 2 || parts[0] != "v1" {
		writeError(w, http.StatusNotFound, "NoSuchEndpointException", "no route %s", r.URL.Path)
		return
	}
	route := parts[1:]
	if len(route) == 2 && route[0] == "oauth" && route[1] == "tokens" && r.Method == http.MethodPost {
		c.token(w, r)
		return
	}
	if !c.authorized(r) {
		writeError(w, http.StatusUnauthorized, "NotAuthorizedException", "a bearer token is required")
		return
	}
	ctx := r.Context()
	switch {
	case len(route) == 1 && route[0] == "config" && r.Method == http.MethodGet:
		c.warehouse.Store(r.URL.Query().Get("warehouse"))
		writeJSON(w, http.StatusOK, map[string]any{"defaults": map[string]string{}, "overrides": map[string]string{}})
	case len(route) == 1 && route[0] == "namespaces" && r.Method == http.MethodPost:
		c.createNamespace(ctx, w, r)
	case len(route) == 2 && route[0] == "namespaces":
		c.namespace(ctx, w, r, splitNamespace(route[1]))
	case len(route) == 3 && route[0] == "namespaces" && route[2] == "tables" && r.Method == http.MethodPost:
		c.createTable(ctx, w, r, splitNamespace(route[1]))
	case len(route) == 4 && route[0] == "namespaces" && route[2] == "tables":
		ident := append(splitNamespace(route[1]), route[3])
		switch r.Method {
		case http.MethodGet:
			c.loadTable(ctx, w, ident)
		case http.MethodHead:
			if _, err := c.cat.LoadTable(ctx, ident); err != nil {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case http.MethodPost:
			c.commitTable(ctx, w, r, ident)
		default:
			writeError(w, http.StatusMethodNotAllowed, "BadRequestException", "%s %s", r.Method, r.URL.Path)
		}
	default:
		writeError(w, http.StatusNotFound, "NoSuchEndpointException", "no route %s %s", r.Method, r.URL.Path)
	}
}

// splitNamespace splits a namespace path segment at the spec's separator
// (0x1F, the unit separator).
func splitNamespace(s string) table.Identifier { return strings.Split(s, "\x1f") }

// token is the spec's OAuth2 token route: client credentials in, a bearer
// token out.
func (c *RESTCatalog) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	if r.PostForm.Get("grant_type") != "client_credentials" || r.PostForm.Get("client_id") != c.ClientID || r.PostForm.Get("client_secret") != c.ClientSecret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client", "error_description": "unknown client credentials"})
		return
	}
	tok := fmt.Sprintf("issued-%d", c.tokens.Add(1))
	c.issued.Store(tok, true)
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "bearer", "expires_in": 3600, "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"})
}

func (c *RESTCatalog) authorized(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	if tok == c.Token {
		return true
	}
	_, issued := c.issued.Load(tok)
	return issued
}

func (c *RESTCatalog) createNamespace(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	var req struct {
		Namespace  []string          `json:"namespace"`
		Properties map[string]string `json:"properties"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Namespace) == 0 {
		writeError(w, http.StatusBadRequest, "BadRequestException", "want a CreateNamespaceRequest: %v", err)
		return
	}
	err := c.cat.CreateNamespace(ctx, req.Namespace, req.Properties)
	switch {
	case errors.Is(err, catalog.ErrNamespaceAlreadyExists):
		writeError(w, http.StatusConflict, "AlreadyExistsException", "namespace %v exists", req.Namespace)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "ServerError", "%v", err)
	default:
		writeJSON(w, http.StatusOK, map[string]any{"namespace": req.Namespace, "properties": req.Properties})
	}
}

func (c *RESTCatalog) namespace(ctx context.Context, w http.ResponseWriter, r *http.Request, ns table.Identifier) {
	exists, err := c.cat.CheckNamespaceExists(ctx, ns)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "ServerError", "%v", err)
		return
	}
	if !exists {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		writeError(w, http.StatusNotFound, "NoSuchNamespaceException", "namespace %v does not exist", ns)
		return
	}
	switch r.Method {
	case http.MethodHead:
		w.WriteHeader(http.StatusNoContent)
	case http.MethodGet:
		props, err := c.cat.LoadNamespaceProperties(ctx, ns)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "ServerError", "%v", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"namespace": ns, "properties": props})
	default:
		writeError(w, http.StatusMethodNotAllowed, "BadRequestException", "%s %s", r.Method, r.URL.Path)
	}
}

// loadTableResult is the spec's LoadTableResult.
type loadTableResult struct {
	MetadataLocation string            `json:"metadata-location"`
	Metadata         table.Metadata    `json:"metadata"`
	Config           map[string]string `json:"config"`
}

func (c *RESTCatalog) loadTable(ctx context.Context, w http.ResponseWriter, ident table.Identifier) {
	tbl, err := c.cat.LoadTable(ctx, ident)
	switch {
	case errors.Is(err, catalog.ErrNoSuchTable):
		writeError(w, http.StatusNotFound, "NoSuchTableException", "table %v does not exist", ident)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "ServerError", "%v", err)
	default:
		writeJSON(w, http.StatusOK, loadTableResult{MetadataLocation: tbl.MetadataLocation(), Metadata: tbl.Metadata(), Config: map[string]string{}})
	}
}

func (c *RESTCatalog) createTable(ctx context.Context, w http.ResponseWriter, r *http.Request, ns table.Identifier) {
	var req struct {
		Name          string             `json:"name"`
		Location      string             `json:"location"`
		Schema        *ice.Schema        `json:"schema"`
		PartitionSpec *ice.PartitionSpec `json:"partition-spec"`
		StageCreate   bool               `json:"stage-create"`
		Properties    ice.Properties     `json:"properties"`
		WriteOrder    *json.RawMessage   `json:"write-order"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Name == "" || req.Schema == nil {
		writeError(w, http.StatusBadRequest, "BadRequestException", "want a CreateTableRequest with a name and a schema: %v", err)
		return
	}
	if req.StageCreate {
		writeError(w, http.StatusNotAcceptable, "UnsupportedOperationException", "staged creates are not served here")
		return
	}
	opts := []catalog.CreateTableOpt{catalog.WithProperties(req.Properties)}
	if req.Location != "" {
		opts = append(opts, catalog.WithLocation(req.Location))
	}
	if req.PartitionSpec != nil {
		opts = append(opts, catalog.WithPartitionSpec(req.PartitionSpec))
	}
	c.commit.Lock()
	defer c.commit.Unlock()
	tbl, err := c.cat.CreateTable(ctx, append(ns, req.Name), req.Schema, opts...)
	switch {
	case errors.Is(err, catalog.ErrTableAlreadyExists):
		writeError(w, http.StatusConflict, "AlreadyExistsException", "table %s exists", req.Name)
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		writeError(w, http.StatusNotFound, "NoSuchNamespaceException", "namespace %v does not exist", ns)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "ServerError", "%v", err)
	default:
		writeJSON(w, http.StatusOK, loadTableResult{MetadataLocation: tbl.MetadataLocation(), Metadata: tbl.Metadata(), Config: map[string]string{}})
	}
}

// commitTable is the spec's updateTable: a CommitTableRequest's
// requirements checked against the current metadata, then its updates
// applied, as one commit.
func (c *RESTCatalog) commitTable(ctx context.Context, w http.ResponseWriter, r *http.Request, ident table.Identifier) {
	var req struct {
		Identifier *struct {
			Namespace []string
			Name      string
		} `json:"identifier"`
		Requirements table.Requirements `json:"requirements"`
		Updates      table.Updates      `json:"updates"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "BadRequestException", "want a CommitTableRequest: %v", err)
		return
	}
	c.commit.Lock()
	defer c.commit.Unlock()
	if c.down.Load() { // went down while this commit waited for the one before
		writeError(w, http.StatusServiceUnavailable, "ServiceUnavailableException", "the catalog is down")
		return
	}
	meta, loc, err := c.cat.CommitTable(ctx, ident, req.Requirements, req.Updates)
	switch {
	case errors.Is(err, catalog.ErrNoSuchTable):
		writeError(w, http.StatusNotFound, "NoSuchTableException", "table %v does not exist", ident)
		return
	case err != nil && (strings.Contains(err.Error(), "requirement failed") || errors.Is(err, table.ErrCommitFailed)):
		c.conflicts.Add(1)
		writeError(w, http.StatusConflict, "CommitFailedException", "%v", err)
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, "ServerError", "%v", err)
		return
	}
	c.commits.Add(1)
	if c.commitsLeft.Load() > 0 && c.commitsLeft.Add(-1) == 0 {
		// Made, and its answer lost with the catalog.
		c.down.Store(true)
		writeError(w, http.StatusServiceUnavailable, "ServiceUnavailableException", "the catalog went down")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"metadata-location": loc, "metadata": meta})
}
