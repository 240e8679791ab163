package calendar

// Localized weekday and month names: the CLDR "stand-alone wide" forms, exactly as
// CLDR writes them (CLDR 45, npm package cldr-dates-modern 45.0.0): capitalised in
// de and en, lower case in fr, es, it, nl, pt and pl, nominative months in pl
// ("styczeń", not the genitive "stycznia"). de and en equal the reference service.

// DefaultLocale is the locale used when none is given.
const DefaultLocale = "de"

type names struct {
	weekdays [7]string  // Monday first
	months   [12]string // January first
}

var locales = map[string]*names{
	"de": {
		[7]string{"Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"},
		[12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	},
	"en": {
		[7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
		[12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	},
	"fr": {
		[7]string{"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"},
		[12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	},
	"es": {
		[7]string{"lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"},
		[12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
	},
	"it": {
		[7]string{"lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"},
		[12]string{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
	},
	"nl": {
		[7]string{"maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"},
		[12]string{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
	},
	"pt": {
		[7]string{"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"},
		[12]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
	},
	"pl": {
		[7]string{"poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota", "niedziela"},
		[12]string{"styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień", "wrzesień", "październik", "listopad", "grudzień"},
	},
}

// Locales lists the supported locales, default first.
func Locales() []string { return []string{"de", "en", "fr", "es", "it", "nl", "pt", "pl"} }

// KnownLocale reports whether loc is supported.
func KnownLocale(loc string) bool { _, ok := locales[loc]; return ok }

// WeekdayName is the name of ISO weekday w (1 = Monday) in loc; "" when either is unknown.
func WeekdayName(loc string, w int) string {
	n, ok := locales[loc]
	if !ok || w < 1 || w > 7 {
		return ""
	}
	return n.weekdays[w-1]
}

// MonthName is the name of month m (1 = January) in loc; "" when either is unknown.
func MonthName(loc string, m int) string {
	n, ok := locales[loc]
	if !ok || m < 1 || m > 12 {
		return ""
	}
	return n.months[m-1]
}
