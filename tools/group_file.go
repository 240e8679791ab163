package tools

// fileTools lists, in catalogue order: generate_file.
func fileTools(deps Deps) []Tool {
	return []Tool{generateFile(deps.Files, deps.DownloadURL)}
}
