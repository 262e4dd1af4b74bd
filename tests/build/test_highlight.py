"""Build-time highlighting: lines split right, spans merged, no style attributes, dedent."""
import re

from builder.highlight import dedent, highlight_lines, lex_lines, lexer_for_file, lexer_named, to_html


def test_a_token_spanning_lines_is_split_into_one_span_per_line():
    lines = highlight_lines('x = """one\ntwo"""\ny = 1\n', lexer_named("python"))
    assert lines == ['x <span class="o">=</span> <span class="s2">"""one</span>',
                     '<span class="s2">two"""</span>',
                     'y <span class="o">=</span> <span class="mi">1</span>']


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
        '<span class="k">def</span> <span class="nf">f</span><span class="p">():</span>', "",
        '    <span class="k">return</span> <span class="mi">1</span>']


def test_lexers_by_name_and_by_file():
    assert lexer_named("sql") is not None and lexer_named("no-such-language") is None
    assert lexer_for_file("tinyq.py").name == "Python"
    assert lexer_for_file("notes.unknownext").name == "Text only"
