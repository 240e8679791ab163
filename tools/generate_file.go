package tools

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/docgen"
	"github.com/precisiond/precisiond/internal/filestore"
)

type generateFileInput struct {
	Content  string `json:"content"`
	Filename string `json:"filename"`
	Format   string `json:"format"`
}

type generateFileFacts struct {
	Filename     string `json:"filename"`
	Format       string `json:"format"`
	Bytes        int    `json:"bytes"`
	SHA256       string `json:"sha256"`
	DownloadPath string `json:"download_path"`
	MediaType    string `json:"media_type"`
}

// maxTitleRunes bounds the document title taken from the file name.
const maxTitleRunes = 200

func generateFile(store *filestore.Store, downloadURL func(string) string) Tool {
	return Define(Def[generateFileInput, generateFileFacts]{
		Name: "generate_file",
		Run: func(ctx context.Context, in generateFileInput) (generateFileFacts, []Warning, error) {
			if store == nil {
				return generateFileFacts{}, nil, StoreUnavailable(ReasonStoreNotConfigured, "the download store is not configured on this server")
			}
			if len(in.Content) > store.MaxContentBytes() {
				return generateFileFacts{}, nil, TooCostly("content_too_large", "content is %d bytes of UTF-8; at most %d are accepted", len(in.Content), store.MaxContentBytes())
			}
			format, ok := docgen.ParseFormat(in.Format)
			if !ok {
				return generateFileFacts{}, nil, Fail("unsupported_format", "format %q is not supported", in.Format)
			}
			title := in.Filename
			if utf8.RuneCountInString(title) > maxTitleRunes {
				title = string([]rune(title)[:maxTitleRunes])
			}
			// Stages: render, store. Each report is passed on at most every
			// ProgressInterval (ReportProgress).
			ReportProgress(ctx, 0, 2, "rendering the "+format.Ext()+" file")
			out, err := docgen.RenderFile(ctx, format, []byte(in.Content), title)
			data := out.Data
			if err != nil {
				var limit *docgen.LimitError
				var bad *docgen.InputError
				switch {
				case errors.As(err, &limit):
					return generateFileFacts{}, nil, TooCostly(limit.Reason, "%s", limit.Message)
				case errors.As(err, &bad):
					return generateFileFacts{}, nil, Fail(bad.Reason, "%s", bad.Message)
				}
				return generateFileFacts{}, nil, err
			}
			if err := ctx.Err(); err != nil {
				return generateFileFacts{}, nil, err
			}
			ReportProgress(ctx, 1, 2, "storing the file")
			e, err := store.Put(ctx, filestore.SanitizeBase(in.Filename, format.Ext()), format.Ext(), data)
			if errors.Is(err, filestore.ErrTooLarge) {
				return generateFileFacts{}, nil, TooCostly("file_too_large", "the generated %s file is %d bytes; the store accepts at most %d", format, len(data), store.MaxFileBytes())
			}
			var unavailable *filestore.UnavailableError
			if errors.As(err, &unavailable) {
				reason := ReasonStoreRefused
				if unavailable.NotAnswering() {
					reason = ReasonStoreNotAnswering
				}
				return generateFileFacts{}, nil, StoreUnavailable(reason, "the download store cannot be written: %s", unavailable.Cause())
			}
			if err != nil {
				return generateFileFacts{}, nil, err
			}
			var warnings []Warning
			if n := out.FormulasNeutralized; n > 0 {
				warnings = append(warnings, Warning{Code: "csv_formula_neutralized", Message: fmt.Sprintf(
					"%d cell(s) started with =, +, -, @, a tab or a carriage return and were not plain numbers: written behind a single quote so that a spreadsheet shows them as text instead of running them as formulas (OWASP CSV injection)", n)})
			}
			return generateFileFacts{
				Filename:     e.Name,
				Format:       string(format),
				Bytes:        len(data),
				SHA256:       e.SHA256,
				DownloadPath: "/downloads/" + e.Name,
				MediaType:    format.MediaType(),
			}, warnings, nil
		},
		Legacy: func(_ generateFileInput, out generateFileFacts) string {
			link := out.DownloadPath
			if downloadURL != nil {
				link = downloadURL(out.Filename)
			}
			return "File generated: " + out.Filename + " (" + filestore.FormatKB(out.Bytes) + " KB)\nDownload: " + link
		},
	})
}
