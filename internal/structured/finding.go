package structured

// Finding codes, the reference's. Codes of ValueErrors the reference catches
// are the exception's text instead (e.g. "month must be in 1..12").
const (
	CodeJSONParse      = "json_parse_error"
	CodeJSONSchema     = "json_schema_error"
	CodeSchemaParse    = "schema_parse_error"
	CodeSchemaInvalid  = "schema_invalid"
	CodeSchemaRoot     = "schema_root_must_be_object"
	CodeSchemaRef      = "schema_ref_not_allowed"
	CodeYAMLRejected   = "yaml_alias_anchor_or_tag_rejected"
	CodeYAMLParse      = "yaml_parse_error"
	CodeXMLForbidden   = "xml_forbidden_construct"
	CodeXMLParse       = "xml_parse_error"
	CodeCSVMismatch    = "csv_column_count_mismatch"
	CodeCSVParse       = "csv_parse_error"
	CodeCSVRowLimit    = "csv_row_limit_exceeded"
	CodeCSVColumnLimit = "csv_column_limit_exceeded"
	CodeCSVFieldLimit  = "csv_field_size_limit_exceeded"
)

// Finding codes of ParseJSON, the parser json_query shares.
const (
	CodeJSONSyntax = "json_syntax" // not one RFC 8259 JSON text
	CodeDepthLimit = "depth_limit"
	CodeNodeLimit  = "node_limit"
)

// Finding is one problem found in a payload, as the reference reports it:
// Line and Column are 1-based where the parser gives them, else nil; Path is
// "" or, for schema errors, "/" followed by the failing value's keys and
// indexes joined with "/" (no escaping, as the reference writes it).
type Finding struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Line    *int   `json:"line"`
	Column  *int   `json:"column"`
	Path    string `json:"path"`
}

func ptr[T any](v T) *T { return &v }
