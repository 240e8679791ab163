package structured

// Finding codes. Every code is documented in the structured_validate contract.
const (
	CodePayloadTooLarge   = "payload_too_large"   // payload over 65536 UTF-8 bytes
	CodeJSONSyntax        = "json_syntax"         // not one RFC 8259 JSON text
	CodeYAMLSyntax        = "yaml_syntax"         // YAML the parser rejects
	CodeYAMLAnchorRefused = "yaml_anchor_refused" // &anchor
	CodeYAMLAliasRefused  = "yaml_alias_refused"  // *alias
	CodeYAMLTagRefused    = "yaml_tag_refused"    // !tag, !!tag, %TAG
	CodeYAMLMultiDoc      = "yaml_multiple_documents"
	CodeYAMLDirective     = "yaml_directive_refused" // %YAML / %TAG directives
	CodeXMLSyntax         = "xml_syntax"
	CodeXMLDTDRefused     = "xml_dtd_refused"    // <!DOCTYPE ...> (and any <!...> directive)
	CodeXMLEntityRefused  = "xml_entity_refused" // &name; other than the five predefined
	CodeXIncludeRefused   = "xinclude_refused"   // an element in the XInclude namespace
	CodeXMLProcInst       = "xml_pi_refused"     // processing instructions other than <?xml ...?>
	CodeCSVSyntax         = "csv_syntax"         // bare or unterminated quote
	CodeCSVRowLimit       = "csv_row_limit"
	CodeCSVColumnLimit    = "csv_column_limit"
	CodeCSVFieldTooLong   = "csv_field_too_long"
	CodeDepthLimit        = "depth_limit"
	CodeNodeLimit         = "node_limit"
	CodeSchemaNotJSON     = "schema_format_mismatch" // schema_json given for a non-JSON format
	CodeSchemaTooLarge    = "schema_too_large"
	CodeSchemaSyntax      = "schema_syntax"
	CodeSchemaRefRefused  = "schema_ref_refused"
	CodeSchemaInvalid     = "schema_invalid"
	CodeSchemaViolation   = "schema_violation"
)

// Finding is one problem found in a payload. Line and Column are 1-based (the
// column counts Unicode code points); Path is an RFC 6901 JSON Pointer (for JSON
// and YAML) or a slash path of element names (XML) or /row/column (CSV). Nil
// means not applicable. Messages never quote the payload.
type Finding struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Line    *int    `json:"line"`
	Column  *int    `json:"column"`
	Path    *string `json:"path"`
}

func ptr[T any](v T) *T { return &v }
