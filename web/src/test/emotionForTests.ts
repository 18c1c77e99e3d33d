// The test DOM (happy-dom) lays nothing out, but its getComputedStyle matches every CSS rule in
// the document against the element and its ancestors, and Emotion writes one <style> per rule:
// hundreds once the search builder is open, and a role query calls it for each candidate and
// its ancestors after any change. What a test can observe through computed styles is whether an
// element is shown (Testing Library's role queries and toBeVisible: display none, visibility,
// opacity) and whether it takes clicks (user-event: pointer-events). So the test setup
// (setup.ts) lets Emotion's rules reach the DOM with those declarations only, and a rule with
// none of them reaches it empty. Outside @media, dropping a display other than none can only
// turn an element that was shown into one that is hidden, never the reverse, so no test can pass
// on an element the real styles hide. Inside @media every display is kept: happy-dom applies
// media queries at its viewport's width (vite.config.ts), and MUI writes a responsive display
// (`display: { xs: 'none', sm: 'flex' }`) as one @media rule per breakpoint, where the wider
// one's flex must still override the narrower one's none.
const SEEN_BY_TESTS = /^\s*(display\s*:\s*none|visibility\s*:|opacity\s*:|pointer-events\s*:)/i;
const SEEN_IN_MEDIA = /^\s*(display\s*:|visibility\s*:|opacity\s*:|pointer-events\s*:)/i;

/** The rules with only the declarations above; blocks and at-rules left empty are removed. */
export function visibilityOnly(rules: string): string {
  return topLevelRules(rules)
    .map((rule) => {
      const seen = /^\s*@media\b/i.test(rule) ? SEEN_IN_MEDIA : SEEN_BY_TESTS;
      let out = rule.replace(/([^{};]*)\{([^{}]*)\}/g, (_, selector: string, body: string) => {
        const kept = body.split(';').filter((declaration) => seen.test(declaration));
        return kept.length > 0 ? `${selector}{${kept.join(';')};}` : '';
      });
      // An @media or @supports whose rules were all dropped.
      for (let before = ''; before !== out;) {
        before = out;
        out = out.replace(/[^{};]*\{\s*\}/g, '');
      }
      return out;
    })
    .join('');
}

/** Emotion inserts one rule at a time; a text with several is split at its top-level braces. */
function topLevelRules(text: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) {
      rules.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) rules.push(text.slice(start));
  return rules;
}
