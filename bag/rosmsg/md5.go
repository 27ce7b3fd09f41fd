package rosmsg

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
)

// MD5Text returns the text genmsg hashes for type typ
// (gentools.compute_md5_text): constants first in declaration order, then
// fields, with each nested type replaced by its own md5 sum.
func (d *Definition) MD5Text(typ string) (string, error) {
	return d.md5Text(typ, make(map[string]string), make(map[string]bool))
}

// MD5 returns the md5 sum of type typ as genmsg computes it.
func (d *Definition) MD5(typ string) (string, error) {
	return d.md5(typ, make(map[string]string), make(map[string]bool))
}

func (d *Definition) md5(typ string, memo map[string]string, active map[string]bool) (string, error) {
	if sum, ok := memo[typ]; ok {
		return sum, nil
	}
	text, err := d.md5Text(typ, memo, active)
	if err != nil {
		return "", err
	}
	h := md5.Sum([]byte(text))
	sum := hex.EncodeToString(h[:])
	memo[typ] = sum
	return sum, nil
}

func (d *Definition) md5Text(typ string, memo map[string]string, active map[string]bool) (string, error) {
	s, ok := d.Specs[typ]
	if !ok {
		return "", defError(d.Type, "", ErrUnknownType, typ)
	}
	if active[typ] {
		return "", defError(d.Type, "", ErrRecursive, typ+" contains itself")
	}
	active[typ] = true
	defer delete(active, typ)
	var b strings.Builder
	for _, c := range s.Constants {
		b.WriteString(c.Type + " " + c.Name + "=" + c.Value + "\n")
	}
	for _, f := range s.Fields {
		if builtinTypes[f.BaseType] {
			b.WriteString(f.Type + " " + f.Name + "\n")
			continue
		}
		sub, err := d.md5(f.BaseType, memo, active)
		if err != nil {
			if e, ok := err.(*Error); ok {
				e.prefixField(f.Name)
			}
			return "", err
		}
		b.WriteString(sub + " " + f.Name + "\n")
	}
	return pyStrip(b.String()), nil
}
