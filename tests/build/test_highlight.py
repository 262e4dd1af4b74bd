"""Build-time highlighting: lines split right, spans merged, no style attributes, dedent."""
import re
from pathlib import Path

from builder.highlight import COLOURS, dedent, highlight_lines, lex_lines, lexer_for_file, lexer_named, to_html


def test_a_token_spanning_lines_is_split_into_one_span_per_line():
    lines = highlight_lines('x = """one\ntwo"""\ny = 1\n', lexer_named("python"))
    assert lines == ['x = <span class="s">"""one</span>',
                     '<span class="s">two"""</span>',
                     'y = <span class="m">1</span>']


def test_blank_lines_are_kept_so_numbers_stay_right():
    assert len(highlight_lines("a\n\n\nb\n", lexer_named("python"))) == 4
    assert len(highlight_lines("\n\na\n", lexer_named("python"))) == 3   # leading blank lines kept


def test_markup_is_escaped_and_no_style_attribute_is_written():
    (line,) = highlight_lines("<b style='x'>&</b>\n", lexer_named("html"))
    tags = set(re.findall(r"<(/?\w+)", line))
    assert tags == {"span", "/span"}
    assert "&lt;" in line and "&amp;" in line
    assert not re.search(r"<span [^>]*style=", line)


def test_dedent_removes_shared_indentation_across_tokens():
    lines = lex_lines("    def f():\n\n        return 1\n", lexer_named("python"))
    assert [to_html(line) for line in dedent(lines)] == [
        '<span class="k">def</span> <span class="nf">f</span>():', "",
        '    <span class="k">return</span> <span class="m">1</span>']


def test_lexers_by_name_and_by_file():
    assert lexer_named("sql") is not None and lexer_named("no-such-language") is None
    assert lexer_for_file("tinyq.py").name == "Python"
    assert lexer_for_file("notes.unknownext").name == "Text only"


def test_one_span_per_run_of_one_colour_and_none_for_plain_text():
    # f"hi {name}": the prefix, the text and the braces are all string-coloured (Pygments: sa, s2,
    # si): one span each side of the plain name; operators and punctuation get none.
    (line,) = highlight_lines('print(f"hi {name}!")\n', lexer_named("python"))
    assert line == '<span class="nb">print</span>(<span class="s">f"hi {</span>name<span class="s">}!"</span>)'


def test_every_colour_the_builder_writes_has_a_rule_in_the_theme():
    css = (Path(__file__).resolve().parents[2] / "theme" / "css" / "40-code.css").read_text(encoding="utf-8")
    drawn = set(re.findall(r"^\.code-block \.([a-z]+) \{", css, re.M))
    assert set(COLOURS.values()) == drawn
