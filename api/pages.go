package api

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// The start page (GET /) and the API reference (GET /docs): HTML for people
// who open the service in a browser. Both are written from the registry and
// served under a strict Content-Security-Policy; /docs runs the vendored
// Swagger UI (api/swaggerui, SOURCE.md there) on /openapi.json and loads
// nothing from another origin.

//go:embed pages/*
var pageFiles embed.FS

//go:embed swaggerui/swagger-ui-bundle.js swaggerui/swagger-ui.css
var swaggerUIFiles embed.FS

// swaggerUIVersion is the vendored swagger-ui-dist release (api/swaggerui).
const swaggerUIVersion = "5.35.0"

var (
	landingPage = template.Must(template.ParseFS(pageFiles, "pages/landing.html.tmpl"))
	docsPage    = template.Must(template.ParseFS(pageFiles, "pages/docs.html.tmpl"))
)

// landingCSP: the start page has no script at all.
const landingCSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// docsCSP is the admin page's policy plus data: images, which Swagger UI's
// stylesheet uses for its icons (inline SVG in url(data:…)). Scripts and
// styles come only from this origin: no 'unsafe-inline', no 'unsafe-eval'
// (TestDocsInChromium fails on any violation report).
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// pageRoutes mounts /, /docs and their static files, for GET and HEAD.
func (s *Server) pageRoutes(r chi.Router) {
	routes := map[string]http.HandlerFunc{
		"/":                    s.landing,
		"/docs":                s.docs,
		"/static/pages.css":    staticFile(pageFiles, "pages/pages.css", "text/css; charset=utf-8", "no-cache"),
		"/docs/static/docs.js": staticFile(pageFiles, "pages/docs.js", "text/javascript; charset=utf-8", "no-cache"),
		// The vendored files change only with the binary's Swagger UI release.
		"/docs/static/swagger-ui-bundle.js": staticFile(swaggerUIFiles, "swaggerui/swagger-ui-bundle.js", "text/javascript; charset=utf-8", "public, max-age=86400"),
		"/docs/static/swagger-ui.css":       staticFile(swaggerUIFiles, "swaggerui/swagger-ui.css", "text/css; charset=utf-8", "public, max-age=86400"),
	}
	for path, h := range routes {
		r.Get(path, h)
		r.Head(path, h)
	}
}

// staticFile serves one embedded file with its type and caching (ranges
// and HEAD as http.ServeContent does).
func staticFile(fsys embed.FS, name, mediaType, cache string) http.HandlerFunc {
	data, err := fsys.ReadFile(name)
	if err != nil {
		panic("api: embedded page file missing: " + name)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", mediaType)
		h.Set("Cache-Control", cache)
		h.Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
	}
}

// pageTool is one row of the start page's tool table.
type pageTool struct {
	Name, Title, Determinism string
	Enabled                  bool
}

// landing is GET /: what the service is, where everything is, the tools.
func (s *Server) landing(w http.ResponseWriter, r *http.Request) {
	cat := s.reg.Catalog()
	list := make([]pageTool, 0, len(cat.Tools))
	for _, e := range cat.Tools {
		t := pageTool{Name: str(e["name"]), Title: str(e["title"]), Determinism: str(e["determinism"])}
		t.Enabled, _ = e["enabled"].(bool)
		list = append(list, t)
	}
	s.writePage(w, r, landingPage, landingCSP, "no-cache", map[string]any{
		"Version": s.opts.Version, "CatalogHash": cat.CatalogHash, "Tools": list,
		"Origin": origin(r), "MCP": s.opts.MCP != nil, "Metrics": s.opts.Metrics != nil, "Plans": s.opts.Plans != nil,
	})
}

// docs is GET /docs: the interactive API reference.
func (s *Server) docs(w http.ResponseWriter, r *http.Request) {
	s.writePage(w, r, docsPage, docsCSP, "no-cache", map[string]any{"Version": s.opts.Version})
}

// origin is the base URL a reader of the page reaches this server at, for
// the examples on it (the request's Host; loopback when there is none).
func origin(r *http.Request) string {
	host := r.Host
	if host == "" || strings.ContainsAny(host, " /\\'\"<>") {
		host = "127.0.0.1:8003"
	}
	return "http://" + host
}

// writePage renders an HTML page with its Content-Security-Policy, caching
// and the headers every page has (/, /docs, /admin).
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, t *template.Template, csp, cache string, data any) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		s.log.Error("rendering a page", "request_id", surface.RequestID(r.Context()), "page", t.Name(), "err", err.Error())
		surface.SetLogError(r.Context(), tools.CodeInternal)
		surface.WriteError(w, &surface.Error{Code: tools.CodeInternal, Message: "internal error"}, false)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", cache)
	_, _ = w.Write(buf.Bytes())
}
