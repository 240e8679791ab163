package surface

import (
	"fmt"
	"net/url"
	"strings"
)

// PublicBase checks a public base URL (--public-base-url) and returns it
// without a trailing slash: an absolute http(s) URL with a host, optionally a path
// prefix (behind an ingress), no query, fragment or credentials.
func PublicBase(v string) (string, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("public-base-url %q: want an absolute http:// or https:// URL such as https://precisiond.example.com or https://example.com/precisiond", v)
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(v, "#") {
		return "", fmt.Errorf("public-base-url %q: no credentials, query or fragment", v)
	}
	return strings.TrimRight(v, "/"), nil
}

// DownloadLinks is the absolute link of a stored file under the public base
// URL base (tools.Deps.DownloadURL, mcpapi.Options.DownloadURL), or nil without
// one (links stay /downloads/<name>). The facts never carry
// it: download_path is hashed and must not depend on the host.
func DownloadLinks(publicBaseURL string) func(name string) string {
	if publicBaseURL == "" {
		return nil
	}
	base, err := PublicBase(publicBaseURL)
	if err != nil {
		return nil // the configuration refused it already
	}
	return func(name string) string { return base + "/downloads/" + name }
}
