package tools

// timeTools lists, in catalogue order: calendar_facts, day_of_week, time_facts, timezone_convert, date_diff, date_add.
func timeTools(deps Deps) []Tool {
	return nil
}
