package widgets

import (
	"errors"
	"fmt"

	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model/query"
)

// ExprErrorText says what is wrong with an expression as the Find bar
// and the Log view show it:
// "Column N: the mistake; did you mean …?", after the topic it was
// compiled for when it names one.
func ExprErrorText(text string, err error) string {
	var xe *expr.Error
	if !errors.As(err, &xe) {
		return err.Error()
	}
	s := fmt.Sprintf("Column %d: %s", xe.Column(text), xe.Error())
	var ce *query.CompileError
	if !errors.As(err, &ce) || len(ce.Unread) == 0 {
		return s
	}
	u := ce.Unread[0]
	topics := map[string]bool{}
	for _, x := range ce.Unread {
		topics[x.Topic] = true
	}
	if len(topics) == 1 {
		return fmt.Sprintf("%s (%s): %s", u.Topic, u.Type, s)
	}
	return fmt.Sprintf("No topic has what the expression reads; %s (%s): %s", u.Topic, u.Type, s)
}
