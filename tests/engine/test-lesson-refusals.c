/* Lessons refused (docs/lessons.md, Bounds and refusals): malformed
 * lessons with their line, column and message asserted whole, and
 * hostile ones (markup, scripts, `javascript:` links, huge lessons, deep
 * lists, thousands of goals), refused with a message or read into spans
 * that hold exactly the characters written. */
#include "tp-lesson-test.h"

#include <stdlib.h>

/* ---- refusals ---------------------------------------------------------- */

static void
test_structure_refused (void)
{
  refused ("", "1:1: a lesson starts with its title: `# TITLE`");
  refused ("\n\n", "3:1: a lesson starts with its title: `# TITLE`");
  refused ("Title\n", "1:1: a lesson starts with its title: `# TITLE`");
  refused ("#Title\n", "1:1: a lesson starts with its title: `# TITLE`");
  refused ("# \n", "1:1: a lesson starts with its title: `# TITLE`");
  refused ("# T\ntext\n", "2:1: after the title come the sections, each "
           "starting with a line `## text`, `## start`, `## solution`, "
           "`## hints`, `## choices` or `## goals`");
  refused ("# T\n## txt\n", "2:4: no section is called `txt`: the sections "
           "are text, start, solution, hints, choices and goals");
  refused ("# T\n## text\nA.\n## text\nB.\n",
           "4:1: a second `## text` section: each section comes once");
  refused ("# T\n## text\nA.\n## goals\nreads\n",
           "6:1: the lesson has no `## start` section");
  refused ("# T\n## text\n\n## goals\nreads\n",
           "2:1: the `## text` section is empty: write what the lesson "
           "teaches");
  refused ("# T\n## start\nw = parameter 1.0\n",
           "3:1: the `## start` section holds the program as one code "
           "block, between a line ``` and a line ```");
  refused ("# T\n## start\n",
           "2:9: the `## start` section holds the program as one code "
           "block, between a line ``` and a line ```");
  refused ("# T\n## start\n```\nw = parameter 1.0\n```\nmore\n",
           "6:1: the `## start` section holds one code block and nothing "
           "after it");
  refused ("# T\n## start\n```\nw = parameter 1.0\n",
           "3:1: this code block is not closed: end it with a line ```");
  refused ("# T\n## start\n```python\nw = 1\n```\n",
           "3:4: a program's code block opens with ``` or ```tape");
  refused ("# T\n## hints\nA hint.\n", "3:1: the hints are one list, an item "
           "per hint: `- HINT`");
  refused ("# T\n## hints\n- a\n\n  ```\n  x\n  ```\n", "5:1: a hint is one "
           "paragraph: no lists or code blocks inside it");
  refused ("# T\n## hints\n\n", "2:1: the `## hints` section has no hint: "
           "write each as a list item, `- HINT`");
  refused ("# T\n## goals\n\n", "2:1: the `## goals` section has no goal");
}

static void
test_text_refused (void)
{
  refused_text ("an *open emphasis", "5:4: this `*` opens emphasis that does "
                "not close in the same paragraph");
  refused_text ("w * x", "5:3: a `*` that opens no emphasis: write "
                "arithmetic as code (`w * x`), or `\\*` for the character");
  refused_text ("**bold**", "5:1: `**` is not part of a lesson's text: "
                "emphasis is one `*` each side, *like this*");
  refused_text ("*a *", "5:4: emphasis closes right after its text, not "
                "after a space");
  refused_text ("*a `b`*", "5:4: emphasis holds plain text: close it before "
                "code, a link or a `[`");
  refused_text ("a `code\n\nb`", "5:3: this backtick opens code that does not "
                "close in the same paragraph");
  refused_text ("a `` b", "5:3: empty code: nothing between two backticks");
  refused_text ("a \\q", "5:3: `\\` escapes a punctuation character (`\\*`, "
                "`\\``, `\\[`); write `\\\\` for a backslash");
  refused_text ("see\n[x](javascript:alert(1))",
                "6:5: a link goes to an http:// or https:// address of "
                "letters, digits and -._~:/?#@!$&*+,;=%, found "
                "`javascript:alert(1`");
  refused_text ("[x](https://a.org/x", "5:4: a link's address ends with `)`: "
                "[text](https://...)");
  refused_text ("[](https://a.org/)", "5:1: a link has text: "
                "[text](https://...)");
  refused_text ("[a `b`](https://a.org/)", "5:4: a link's text is plain: no "
                "emphasis, code or `[` inside it");
  refused_text ("![a picture](https://a.org/a.png)",
                "5:1: images are not part of a lesson");
  refused_text ("# a heading", "5:1: headings are not part of a lesson's "
                "text (a line `## NAME` at the margin starts a section); "
                "write `\\#` for the character");
  refused_text ("> a quote", "5:1: quotes are not part of a lesson's text; "
                "write `\\>` for the character");
  refused_text ("+ an item", "5:1: a list item starts with `- ` (or `1. `)");
  refused_text ("* an item", "5:1: a list item starts with `- ` (or `1. `)");
  refused_text ("  indented", "5:3: an indented line outside a list item: "
                "start it at column 1, or indent it to the text of the item "
                "above");
  refused_text ("a paragraph\n  indented", "6:3: an indented line in a "
                "paragraph: start it at column 1");
  refused_text ("- an item\n b", "6:2: indent this line to column 3 to go "
                "on with the item, or start it at column 1");
  refused_text ("- an item\nb", "6:1: indent this line to column 3 to go on "
                "with the item, or leave a blank line before a new paragraph");
  refused_text ("1. one\n3. three", "6:1: this item is numbered 3: the "
                "list's items count on from 1, so it is 2");
  refused_text ("-\n", "5:1: an empty list item");
  refused_text ("- \n", "5:1: an empty list item");
  refused_text ("-  two spaces", "5:3: one space between an item's marker "
                "and its text");
  refused_text ("a\ttab", "5:2: a tab: indent and separate with spaces (tabs "
                "are kept only in code blocks and programs)");
  refused_text ("```\ncode", "5:1: this code block is not closed: end it "
                "with a line ``` at its opening's margin");
  refused_text ("- item\n\n  ```\n  code\n```", "7:3: this code block is not "
                "closed: end it with a line ``` at its opening's margin");
  refused_text ("```c++\nx\n```", "5:5: a code block opens with ``` and at "
                "most one word, such as ```tape");
}

static void
test_goals_refused (void)
{
  refused_goals ("readz", "23:1: no goal starts with `readz`; the goals are "
                 "written `reads`, `value`, `shape`, `plan keeps`, "
                 "`plan frees`, `plan skips`, `derivative appends`, "
                 "`derivative uses`, `program uses`, `program records`, "
                 "`check agrees`, `finite`, `nonfinite at`, `trains below`, "
                 "`peak`, `question:`, `optimized removes`, "
                 "`fusion kernels`, `forward agrees`, `fusion bytes`, "
                 "`forward cheaper`, `reverse cheaper` and `remat saves`");
  {
    char *got;
    char *l = lesson_with ("Some text.", "plan keep loss");
    got = refusal_of (l, strlen (l));
    g_assert_true (g_str_has_prefix (got, "23:1: no goal is written "
                                          "`plan keep`; the goals are "
                                          "written `reads`"));
    g_free (got);
    g_free (l);
  }
  refused_goals ("value loss 0", "23:12: expected `=`, found `0`");
  refused_goals ("value loss =", "23:13: expected a number or a list of "
                 "numbers, found the end of the line");
  refused_goals ("value loss = x", "23:14: expected a number or a list of "
                 "numbers, found `x`");
  refused_goals ("value 1x = 0", "23:7: expected a statement's name, found "
                 "`1x`");
  refused_goals ("value loss = 0 within -1", "23:23: expected a tolerance, a "
                 "number at least 0, found `-1`");
  refused_goals ("value h = [[1, 2], [3]]", "23:22: ragged list: its rows at "
                 "one depth have as many elements each");
  refused_goals ("value h = [[1, 2], 3]", "23:20: a list's numbers all sit at "
                 "the same depth");
  refused_goals ("value h = [1, [2]]", "23:15: a list's numbers all sit at "
                 "the same depth");
  refused_goals ("value h = [1 2]", "23:14: expected `,` or `]` in the list, "
                 "found `2`");
  refused_goals ("shape h = [2, 0]", "23:16: an extent is a whole number from "
                 "1 to 4294967295");
  refused_goals ("shape h = 2", "23:11: expected a shape such as [2, 3], or "
                 "[] for one number, found `2`");
  refused_goals ("peak at many 3", "23:9: expected `most` or `least`, found "
                 "`many`");
  refused_goals ("peak lots", "23:6: expected a whole number, found `lots`");
  refused_goals ("trains below low", "23:14: expected a number, found `low`");
  refused_goals ("reads now", "23:7: unexpected `now` after the goal");
  refused_goals ("  say: early", "23:3: an indented line belongs to the goal "
                 "above it, and there is none");
  refused_goals ("reads\n  sey: x", "24:3: under a goal come `say:` (what the "
                 "student sees) and `hint:`");
  refused_goals ("reads\n  say:", "24:7: expected text after the `:`");
  refused_goals ("reads\n  say: a\n  say: b", "25:3: a goal has one `say:` "
                 "line");
  refused_goals ("reads\n  right: a", "24:3: only a question has choices");
  refused_goals ("question: Which?\n  right: a", "23:1: a question has at "
                 "least two choices: `right:` and `wrong:` lines under it");
  refused_goals ("question: Which?\n  right: a\n  right: b", "23:1: a question "
                 "has one `right:` choice");
  refused_goals ("question: Which?\n  wrong: a\n  wrong: b", "23:1: a question "
                 "has one `right:` choice");
  refused_goals ("question: Which?\n  say: x", "24:3: a question's sentence "
                 "is the question itself: `question: TEXT`");
  refused_goals ("question: Which?\n  about: nowhere", "24:10: expected a "
                 "reading: spec, derivative, plan, stablehlo, values, dot, "
                 "summary, check, explain, memory, optimized, fusion, "
                 "forward or jax");
  refused_goals ("question:", "23:10: a question is written `question: TEXT`");
  refused_goals ("reads\tnow", "23:6: a tab: indent and separate with spaces "
                 "(tabs are kept only in code blocks and programs)");
  /* The passes' goals. */
  refused_goals ("optimized removes many", "23:19: expected a whole number, "
                 "found `many`");
  refused_goals ("fusion kernels at least", "23:24: expected a whole number, "
                 "found the end of the line");
  refused_goals ("fusion bytes 1e3", "23:14: expected a whole number, found "
                 "`1e3`");
  refused_goals ("forward agrees now", "23:16: unexpected `now` after the "
                 "goal");
  refused_goals ("forward faster", "23:1: no goal is written `forward "
                 "faster`; the goals are written `reads`, `value`, `shape`, "
                 "`plan keeps`, `plan frees`, `plan skips`, `derivative "
                 "appends`, `derivative uses`, `program uses`, `program "
                 "records`, `check agrees`, `finite`, `nonfinite at`, `trains "
                 "below`, `peak`, `question:`, `optimized removes`, `fusion "
                 "kernels`, `forward agrees`, `fusion bytes`, `forward "
                 "cheaper`, `reverse cheaper` and `remat saves`");
  refused_goals ("reverse cheaper 2", "23:17: unexpected `2` after the goal");
  /* A goal on a rematerialisation needs one among the choices. */
  refused_goals ("reads\nremat saves at least 1", "24:1: the goal `remat "
                 "saves` grades a rematerialisation: ask for one in the "
                 "`## choices` section, `--remat auto` or `--remat NAME`");
  {
    char *got;
    char *l = lesson_with ("Some text.", "derivative uses Foo");
    got = refusal_of (l, strlen (l));
    g_assert_true (g_str_has_prefix (got, "23:17: expected an op as the spec "
                                          "prints it (Leaf, Parameter, "));
    g_assert_true (g_str_has_suffix (got, "), found `Foo`"));
    g_free (got);
    g_free (l);
  }
}

/* A `## choices` section's refusals, at the character they are about
 * (its first choice is on line 27 of lesson_with_choices' lessons). */
static void
refused_choices (const char *choices, const char *expect)
{
  char *l = lesson_with_choices ("reads", choices);

  refused (l, expect);
  g_free (l);
}

static void
test_choices_refused (void)
{
  refused_choices ("--optimise", "27:1: no choice is written `--optimise`; "
                   "the choices are `--optimize`, `--remat auto`, `--remat "
                   "NAME, ...` and `--direction NAME` (or `NAME[i, j]`), one "
                   "a line");
  refused_choices ("optimize", "27:1: no choice is written `optimize`; the "
                   "choices are `--optimize`, `--remat auto`, `--remat NAME, "
                   "...` and `--direction NAME` (or `NAME[i, j]`), one a line");
  refused_choices ("--target loss", "27:1: `--target` is the student's "
                   "choice, not the lesson's: a lesson sets `--optimize`, "
                   "`--remat` and `--direction`");
  refused_choices ("--observe error", "27:1: `--observe` is the student's "
                   "choice, not the lesson's: a lesson sets `--optimize`, "
                   "`--remat` and `--direction`");
  refused_choices ("--exact", "27:1: `--exact` is the student's choice, not "
                   "the lesson's: a lesson sets `--optimize`, `--remat` and "
                   "`--direction`");
  refused_choices ("--optimize\n--optimize", "28:1: a second `--optimize`: "
                   "each choice comes once");
  refused_choices ("--remat auto\n--remat h1", "28:1: a second `--remat`: "
                   "each choice comes once");
  refused_choices ("--optimize now", "27:12: unexpected `now` after the "
                   "choice");
  refused_choices ("  --optimize", "27:3: a choice is written at the margin, "
                   "one a line");
  refused_choices ("--optimize\t", "27:11: a tab: indent and separate with "
                   "spaces (tabs are kept only in code blocks and programs)");
  refused_choices ("--remat", "27:8: expected `auto` or a statement's name "
                   "after `--remat`, found the end of the line");
  refused_choices ("--remat 1h", "27:9: expected `auto` or a statement's "
                   "name after `--remat`, found `1h`");
  refused_choices ("--remat h1,", "27:12: expected a statement's name after "
                   "the `,`, found the end of the line");
  refused_choices ("--remat h1, , h2", "27:13: expected a statement's name "
                   "after the `,`, found `,`");
  refused_choices ("--remat h1 h2", "27:12: unexpected `h2` after the choice");
  refused_choices ("--remat h1, h1", "27:13: `--remat` names `h1` twice");
  refused_choices ("--remat auto, h1", "27:13: `--remat auto` stands alone: "
                   "auto picks the statements itself");
  refused_choices ("--remat h1, auto", "27:13: `--remat auto` stands alone: "
                   "auto picks the statements itself");
  refused_choices ("--remat auto h1", "27:14: unexpected `h1` after the "
                   "choice");
  refused_choices ("--remat a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q",
                   "27:41: `--remat` names at most 16 statements");
  refused_choices ("--direction", "27:12: expected a parameter's name after "
                   "`--direction`, found the end of the line");
  refused_choices ("--direction w[1, x]", "27:18: expected an index, a whole "
                   "number of at most 10 digits, found `x`");
  refused_choices ("--direction w[1 2]", "27:17: expected `,` or `]` after "
                   "the index, found `2`");
  refused_choices ("--direction w[1", "27:16: expected `,` or `]` after the "
                   "index, found the end of the line");
  refused_choices ("--direction w[12345678901]", "27:15: expected an index, "
                   "a whole number of at most 10 digits, found `12345678901`");
  refused_choices ("--direction w[0]x", "27:17: unexpected `x` after the "
                   "choice");
  refused_choices ("--direction w [0]", "27:15: unexpected `[0]` after the "
                   "choice");
  refused_choices ("--direction w[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]",
                   "27:47: an element has at most 16 indices");
  refused_choices ("", "25:1: the `## choices` section has no choice: write "
                   "one a line, such as `--optimize`");
  /* What reads: spaces around commas, blank lines, NAME[] */
  {
    char *text = lesson_with_choices ("reads", "--remat h1 ,h2,h3\n\n"
                                      "--direction w[]");
    TpLesson *l = good_lesson (text);
    TpChoices c = { 0 };
    tp_lesson_choices (l, &c);
    g_assert_cmpuint (c.n_remat, ==, 3);
    g_assert_cmpstr (c.remat[2], ==, "h3");
    g_assert_cmpstr (c.direction, ==, "w[]");
    tp_lesson_free (l);
    g_free (text);
  }
  /* A second section, and the section named in the sections' list. */
  refused ("# T\n## choices\n--optimize\n## choices\n--optimize\n",
           "4:1: a second `## choices` section: each section comes once");
}

static void
test_characters_refused (void)
{
  refused_text ("a\x01", "5:2: a control character: a lesson holds text, not "
                "control characters");
  refused_text ("caf\xc3\xa9 \xff", "5:6: this is not UTF-8 text: a lesson is "
                "UTF-8");
  refused_text ("\xc0\xaf", "5:1: this is not UTF-8 text: a lesson is UTF-8");
  refused_text ("\xed\xa0\x80", "5:1: this is not UTF-8 text: a lesson is "
                "UTF-8");
  refused_text ("abc \xe2\x80\xae" "cba", "5:5: a direction control character: "
                "it can make text read other than it is written");
  refused_text ("a\rb", "5:2: a control character: a lesson holds text, not "
                "control characters");
  {
    /* a NUL inside the text */
    static const char nul[] = "# T\n## text\na\0b\n";
    char *got = refusal_of (nul, sizeof nul - 1);
    g_assert_cmpstr (got, ==, "3:2: a control character: a lesson holds text, "
                     "not control characters");
    g_free (got);
  }
  {
    /* 4,097 bytes in a line */
    GString *s = g_string_new ("# T\n## text\n");
    char *got;
    g_string_append (s, "\xc3\xa9");
    for (int k = 0; k < 4095; k++)
      g_string_append_c (s, 'a');
    got = refusal_of (s->str, s->len);
    g_assert_cmpstr (got, ==, "3:4096: a line of a lesson has at most 4,096 "
                     "bytes");
    g_free (got);
    g_string_free (s, TRUE);
  }
}

static void
test_spans (void)
{
  spans_are ("plain", "text:plain");
  spans_are ("a *b* `c` [d](https://e.org/f?g=1#h) \\*i\\*",
             "text:a |em:b|text: |code:c|text: |link:d->https://e.org/f?g=1#h"
             "|text: *i*");
  spans_are ("two\nlines", "text:two lines");
  spans_are ("shapes [2, 3] and [x] stay", "text:shapes [2, 3] and [x] stay");
  spans_are ("`w * x` in code", "code:w * x|text: in code");
  spans_are ("a [b] (c)", "text:a [b] (c)");
  spans_are ("[http](http://a.org)", "link:http->http://a.org");
  spans_are ("caf\xc3\xa9 \xe2\x88\x82", "text:caf\xc3\xa9 \xe2\x88\x82");
}

static void
test_hostile (void)
{
  /* Markup is text: exactly the characters written. */
  spans_are ("<script>alert(1)</script>", "text:<script>alert(1)</script>");
  spans_are ("<img src=x onerror=alert(1)>",
             "text:<img src=x onerror=alert(1)>");
  spans_are ("&lt;b&gt; <b>bold</b> &amp;", "text:&lt;b&gt; <b>bold</b> &amp;");
  spans_are ("`<script>`", "code:<script>");
  spans_are ("*<img onerror=x>*", "em:<img onerror=x>");
  spans_are ("[<b>](https://a.org/)", "link:<b>->https://a.org/");
  {
    const char *text =
      "# <script>alert('title')</script>\n## text\n<b>x</b>\n"
      "## start\n```\nw = parameter 1.0\n```\n## solution\n```\n"
      "w = parameter 2.0\n```\n## hints\n- <img src=x onerror=alert(1)>\n"
      "## goals\nreads\n  say: <a href=\"javascript:x\">ok</a>\n"
      "  hint: <iframe src=\"https://evil.org\"></iframe>\n";
    TpLesson *l = good_lesson (text);
    size_t n;
    const TpLessonText *hints = tp_lesson_hints (l, &n);
    const TpLessonGoal *goals = tp_lesson_goals (l, &n);

    check_lesson_spans (l);
    g_assert_cmpuint (tp_lesson_title (l)->n_spans, ==, 1);
    g_assert_cmpstr (tp_lesson_title (l)->spans[0].text, ==,
                     "<script>alert('title')</script>");
    g_assert_cmpstr (hints[0].spans[0].text, ==, "<img src=x onerror=alert(1)>");
    g_assert_cmpstr (goals[0].sentence.spans[0].text, ==,
                     "<a href=\"javascript:x\">ok</a>");
    g_assert_cmpstr (goals[0].hint->spans[0].text, ==,
                     "<iframe src=\"https://evil.org\"></iframe>");
    tp_lesson_free (l);
  }
  /* No address but http(s). */
  refused_text ("[x](javascript:alert(1))", "5:5: a link goes to an http:// or "
                "https:// address of letters, digits and -._~:/?#@!$&*+,;=%, "
                "found `javascript:alert(1`");
  refused_text ("[x](JavaScript:x)", "5:5: a link goes to an http:// or "
                "https:// address of letters, digits and -._~:/?#@!$&*+,;=%, "
                "found `JavaScript:x`");
  refused_text ("[x](data:text/html,<script>)", "5:5: a link goes to an "
                "http:// or https:// address of letters, digits and "
                "-._~:/?#@!$&*+,;=%, found `data:text/html,<script>`");
  refused_text ("[x](//evil.org/)", "5:5: a link goes to an http:// or "
                "https:// address of letters, digits and -._~:/?#@!$&*+,;=%, "
                "found `//evil.org/`");
  refused_text ("[x](https:///etc)", "5:5: a link goes to an http:// or "
                "https:// address of letters, digits and -._~:/?#@!$&*+,;=%, "
                "found `https:///etc`");
  refused_text ("[x](https://a.org/\"onclick=\"x)", "5:5: a link goes to an "
                "http:// or https:// address of letters, digits and "
                "-._~:/?#@!$&*+,;=%, found `https://a.org/\"onclick=\"x`");
  refused_text ("[x](https://a.org/ x)", "5:5: a link goes to an http:// or "
                "https:// address of letters, digits and -._~:/?#@!$&*+,;=%, "
                "found `https://a.org/ x`");
  refused_text ("[x](https://a.org/<b>)", "5:5: a link goes to an http:// or "
                "https:// address of letters, digits and -._~:/?#@!$&*+,;=%, "
                "found `https://a.org/<b>`");
  {
    /* an address over 2,048 characters */
    GString *s = g_string_new ("[x](https://a.org/");
    char *text;
    for (int k = 0; k < 2040; k++)
      g_string_append_c (s, 'a');
    g_string_append_c (s, ')');
    text = lesson_with (s->str, "reads");
    refused (text, "5:5: a link's address has at most 2,048 characters");
    g_free (text);
    g_string_free (s, TRUE);
  }
}

static void
test_hostile_sizes (void)
{
  /* A lesson over 256 KiB is refused where the limit falls, reading no
   * further. */
  {
    size_t n = 8u << 20;
    char *big = g_malloc (n);
    char *got;
    memset (big, 'a', n);
    for (size_t i = 99; i < n; i += 100)
      big[i] = '\n';
    got = refusal_of (big, n);
    g_assert_cmpstr (got, ==, "2622:45: a lesson has at most 262,144 bytes");
    g_free (got);
    g_free (big);
  }
  /* Lists nest four deep at most. */
  {
    char *ok = lesson_with ("- a\n  - b\n    - c\n      - d", "reads");
    TpLesson *l = good_lesson (ok);
    size_t n;
    const TpLessonBlock *b = tp_lesson_text (l, &n);
    static const char *const words[] = { "a", "b", "c", "d" };
    for (int depth = 0; depth < 4; depth++)
      {
        g_assert_cmpint (b->kind, ==, TP_BLOCK_LIST);
        g_assert_cmpuint (b->n_items, ==, 1);
        g_assert_cmpuint (b->items[0].n_blocks, ==, depth < 3 ? 2 : 1);
        g_assert_cmpstr (b->items[0].blocks[0].text.spans[0].text, ==,
                         words[depth]);
        b = &b->items[0].blocks[depth < 3 ? 1 : 0];
      }
    tp_lesson_free (l);
    g_free (ok);
  }
  refused_text ("- a\n  - b\n    - c\n      - d\n        - e",
                "9:9: lists nest at most 4 deep");
  {
    GString *s = g_string_new (NULL);
    char *text;
    for (int k = 0; k < 200; k++)
      {
        for (int i = 0; i < 2 * k; i++)
          g_string_append_c (s, ' ');
        g_string_append (s, "- x\n");
      }
    text = lesson_with (s->str, "reads");
    refused (text, "9:9: lists nest at most 4 deep");
    g_free (text);
    g_string_free (s, TRUE);
  }
  /* Thousands of goals, hints, blocks. */
  {
    GString *goals = g_string_new (NULL);
    char *text;
    for (int k = 0; k < 5000; k++)
      g_string_append (goals, "reads\n  say: again\n");
    text = lesson_with ("Some text.", goals->str);
    refused (text, "151:1: a lesson has at most 64 goals");
    g_free (text);
    g_string_free (goals, TRUE);
  }
  {
    GString *s = g_string_new ("# T\n## hints\n");
    char *got;
    for (int k = 0; k < 40; k++)
      g_string_append (s, "- a hint\n");
    got = refusal_of (s->str, s->len);
    g_assert_cmpstr (got, ==, "35:1: a lesson has at most 32 hints");
    g_free (got);
    g_string_free (s, TRUE);
  }
  {
    GString *s = g_string_new (NULL);
    char *text;
    for (int k = 0; k < 5000; k++)
      g_string_append (s, "a\n\n");
    text = lesson_with (s->str, "reads");
    refused (text, "8197:1: a lesson has at most 4,096 blocks (paragraphs, "
             "code blocks, lists and items)");
    g_free (text);
    g_string_free (s, TRUE);
  }
  {
    /* A question with nine choices. */
    GString *s = g_string_new ("question: Which?\n  right: 0\n");
    char *text;
    for (int k = 1; k < 9; k++)
      g_string_append_printf (s, "  wrong: %d\n", k);
    text = lesson_with ("Some text.", s->str);
    refused (text, "32:3: a question has at most 8 choices");
    g_free (text);
    g_string_free (s, TRUE);
  }
  /* Scans stay linear: a paragraph of 240,000 `[` and `*`-free
   * characters, lines of `[` without `]`, reads (and the test would
   * take minutes if each `[` looked for its `]` again). */
  {
    GString *s = g_string_new (NULL);
    TpLesson *l;
    char *text;
    size_t n;
    const TpLessonBlock *b;
    for (int k = 0; k < 60; k++)
      {
        for (int i = 0; i < 4000; i++)
          g_string_append_c (s, k % 2 ? '[' : ']');
        g_string_append_c (s, '\n');
      }
    g_string_truncate (s, s->len - 1);
    text = lesson_with (s->str, "reads");
    l = good_lesson (text);
    b = tp_lesson_text (l, &n);
    g_assert_cmpuint (b->text.n_spans, ==, 1);
    g_assert_cmpuint (b->text.spans[0].length, ==, 60 * 4000 + 59);
    tp_lesson_free (l);
    g_free (text);
    g_string_free (s, TRUE);
  }
}

/* ---- the cost of the worst lessons ------------------------------------ */

typedef union
{
  gsize size;
  long double align_ld;
  void *align_p;
} Head;

static gsize live_bytes, peak_bytes;

static void *
peak_malloc (size_t size)
{
  Head *h = malloc (sizeof *h + size);

  if (h == NULL)
    return NULL;
  h->size = size;
  live_bytes += size;
  if (live_bytes > peak_bytes)
    peak_bytes = live_bytes;
  return h + 1;
}

static void *
peak_realloc (void *ptr, size_t size)
{
  Head *h;

  if (ptr == NULL)
    return peak_malloc (size);
  h = (Head *) ptr - 1;
  live_bytes -= h->size;
  h = realloc (h, sizeof *h + size);
  g_assert_nonnull (h);
  h->size = size;
  live_bytes += size;
  if (live_bytes > peak_bytes)
    peak_bytes = live_bytes;
  return h + 1;
}

static void
peak_free (void *ptr)
{
  Head *h;

  if (ptr == NULL)
    return;
  h = (Head *) ptr - 1;
  live_bytes -= h->size;
  free (h);
}

static const TpAllocator peak_hooks = { peak_malloc, peak_realloc, peak_free };

/* Text section lines of `line` repeated to fill the lesson almost to its
 * limit. */
static char *
filled (const char *line, const char *goals)
{
  GString *s = g_string_new (NULL);
  char *text;

  while (s->len + strlen (line) + strlen (goals) + 400 < TP_LESSON_MAX_BYTES)
    g_string_append (s, line);
  g_string_truncate (s, s->len - 1);
  text = lesson_with (s->str, goals);
  g_string_free (s, TRUE);
  g_assert_cmpuint (strlen (text), <=, TP_LESSON_MAX_BYTES);
  return text;
}

/* Lessons at the size limit, each the worst of its kind, read (or
 * refused) with a bounded heap: at most 64 times the lesson's size.  The
 * times are printed (`--verbose`), never asserted. */
static void
test_worst_costs (void)
{
  GString *goals = g_string_new (NULL);
  char *cases[7];
  static const char *const names[] = {
    "`[` and `]` lines", "emphasis spans", "code spans", "lists four deep",
    "one-word paragraphs", "64 goals of 600 values", "a refusal at the end",
  };

  for (int k = 0; k < 64; k++)
    {
      g_string_append (goals, "value x = [");
      for (int v = 0; v < 600; v++)
        g_string_append (goals, v > 0 ? ", 1" : "1");
      g_string_append (goals, "]\n");
    }
  {
    GString *line = g_string_new (NULL);
    for (int i = 0; i < 4000; i++)
      g_string_append_c (line, i % 3 ? '[' : ']');
    g_string_append_c (line, '\n');
    cases[0] = filled (line->str, "reads");
    g_string_free (line, TRUE);
  }
  cases[1] = filled ("*a* *b* *c* *d* *e* *f* *g* *h*\n", "reads");
  cases[2] = filled ("`a` `b` `c` `d` `e` `f` `g` `h`\n", "reads");
  cases[3] = filled ("- a\n  - b\n    - c\n      - d\n", "reads");
  cases[4] = filled ("a\n\n", "reads");
  cases[5] = lesson_with ("Some text.", goals->str);
  cases[6] = filled ("a b c d e f g h i j k l m n o p\n", "reads\nbad goal");
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      size_t len = strlen (cases[k]);
      gint64 t0 = g_get_monotonic_time ();
      TpLesson *l;

      peak_bytes = live_bytes = 0;
      l = tp_lesson_parse_with_allocator (cases[k], len, &peak_hooks);
      g_assert_nonnull (l);
      /* the lists and the paragraphs are over the block limit, and the
       * last is refused at its end */
      g_assert_true ((tp_lesson_error (l) == NULL) == (k < 3 || k == 5));
      if (g_test_verbose ())
        g_printerr ("%s: %zu bytes, %s in %.1f ms, peak heap %zu KiB\n",
                    names[k], len, tp_lesson_error (l) ? "refused" : "read",
                    (double) (g_get_monotonic_time () - t0) / 1000.0,
                    peak_bytes >> 10);
      g_assert_cmpuint (peak_bytes, <=, 64 * (gsize) len);
      tp_lesson_free (l);
      g_assert_cmpuint (live_bytes, ==, 0);
      g_free (cases[k]);
    }
  g_string_free (goals, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/lessons/refused/structure", test_structure_refused);
  g_test_add_func ("/topos/lessons/refused/text", test_text_refused);
  g_test_add_func ("/topos/lessons/refused/goals", test_goals_refused);
  g_test_add_func ("/topos/lessons/refused/choices", test_choices_refused);
  g_test_add_func ("/topos/lessons/refused/characters", test_characters_refused);
  g_test_add_func ("/topos/lessons/spans", test_spans);
  g_test_add_func ("/topos/lessons/hostile/markup", test_hostile);
  g_test_add_func ("/topos/lessons/hostile/sizes", test_hostile_sizes);
  g_test_add_func ("/topos/lessons/hostile/worst-costs", test_worst_costs);
  return g_test_run ();
}
