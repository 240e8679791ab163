package tools

import (
	"context"
	"fmt"
	"strconv"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/pyrepr"
	"github.com/precisiond/precisiond/internal/textstats"
)

type textInput struct {
	Text string `json:"text"`
}

type textFacts struct {
	Words                  int             `json:"words"`
	UniqueWords            int             `json:"unique_words"`
	Characters             int             `json:"characters"`
	CharactersNoWhitespace int             `json:"characters_no_whitespace"`
	Sentences              int             `json:"sentences"`
	Paragraphs             int             `json:"paragraphs"`
	ReadingTimeMinutes     evidence.Float  `json:"reading_time_minutes"`
	Syllables              int             `json:"syllables"`
	FleschReadingEase      *evidence.Float `json:"flesch_reading_ease"`
	FleschKincaidGrade     *evidence.Float `json:"flesch_kincaid_grade"`
}

// twoDecimals turns textstats' exact two-decimal string into the nearest float.
func twoDecimals(s string) (evidence.Float, error) {
	f, err := strconv.ParseFloat(s, 64)
	return evidence.Float(f), err
}

// textAnalyze is the upgraded text_analyze tool (README, Tools); rules in
// internal/textstats and the contract description.
func textAnalyze() Tool {
	return Define(Def[textInput, textFacts]{
		Name: "text_analyze",
		Run: func(ctx context.Context, in textInput) (textFacts, []Warning, error) {
			if len(in.Text) > textstats.MaxBytes {
				return textFacts{}, nil, TooCostly("text_too_large", "text is %d UTF-8 bytes; the limit is %d", len(in.Text), textstats.MaxBytes)
			}
			st, err := textstats.Analyze(ctx, in.Text)
			if err != nil {
				return textFacts{}, nil, err
			}
			out := textFacts{
				Words: st.Words, UniqueWords: st.UniqueWords, Characters: st.Characters,
				CharactersNoWhitespace: st.CharactersNoWhitespace, Sentences: st.Sentences,
				Paragraphs: st.Paragraphs, Syllables: st.Syllables,
			}
			if out.ReadingTimeMinutes, err = twoDecimals(st.ReadingTimeMinutes); err != nil {
				return textFacts{}, nil, err
			}
			if st.Words > 0 {
				fre, err := twoDecimals(st.FleschReadingEase)
				if err != nil {
					return textFacts{}, nil, err
				}
				fk, err := twoDecimals(st.FleschKincaidGrade)
				if err != nil {
					return textFacts{}, nil, err
				}
				out.FleschReadingEase, out.FleschKincaidGrade = &fre, &fk
			}
			return out, nil, nil
		},
		Legacy: func(_ textInput, f textFacts) string {
			s := fmt.Sprintf("Words: %d (unique %d) | Characters: %d (%d without whitespace) | Sentences: %d | Paragraphs: %d | Reading time: %s min | Syllables: %d",
				f.Words, f.UniqueWords, f.Characters, f.CharactersNoWhitespace, f.Sentences, f.Paragraphs,
				pyrepr.Float(float64(f.ReadingTimeMinutes)), f.Syllables)
			if f.FleschReadingEase != nil {
				s += " | Flesch reading ease: " + pyrepr.Float(float64(*f.FleschReadingEase)) +
					" | Flesch-Kincaid grade: " + pyrepr.Float(float64(*f.FleschKincaidGrade))
			}
			return s
		},
	})
}
