//go:build ignore

// mkzip writes the zone files of an extracted tzdata tree into a reproducible zip
// (sorted names, fixed timestamps, deflate) for internal/tzdb. Run by update.sh.
//
// Included: every file whose content starts with the TZif magic, named by its
// path relative to the root, except the posix/ and right/ trees (duplicates and
// leap-second variants) and the localtime/posixrules aliases. Symbolic links are
// stored as copies of their target, so every alias resolves to the same data.
// The entry "+VERSION" holds the IANA release read from tzdata.zi ("# version X")
// and the entry "+SOURCE" names the Debian package it came from.
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	src := flag.String("src", "", "extracted zoneinfo root (…/usr/share/zoneinfo)")
	debian := flag.String("debian", "", "Debian package version the tree came from")
	out := flag.String("out", "zoneinfo.zip", "output file")
	flag.Parse()
	if *src == "" {
		log.Fatal("-src is required")
	}

	version, err := releaseOf(filepath.Join(*src, "tzdata.zi"))
	if err != nil {
		log.Fatal(err)
	}

	files := map[string][]byte{}
	err = filepath.WalkDir(*src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(*src, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "posix" || rel == "right" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "localtime" || rel == "posixrules" || strings.HasPrefix(rel, "posix/") || strings.HasPrefix(rel, "right/") {
			return nil
		}
		data, err := os.ReadFile(path) // follows symlinks
		if err != nil {
			return nil // dangling link: not a zone
		}
		if !bytes.HasPrefix(data, []byte("TZif")) {
			return nil
		}
		files[rel] = data
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}

	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			log.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			log.Fatal(err)
		}
	}
	add("+VERSION", []byte(version))
	add("+SOURCE", []byte("debian tzdata "+*debian))
	for _, n := range names {
		add(n, files[n])
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d zones, release %s, %d bytes\n", len(names), version, buf.Len())
}

func releaseOf(zi string) (string, error) {
	f, err := os.Open(zi)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "# version "); ok && v != "" {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("%s: no '# version' line", zi)
}
