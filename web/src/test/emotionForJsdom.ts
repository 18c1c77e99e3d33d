// jsdom lays nothing out, but its getComputedStyle matches every CSS rule in the document against
// the element and its ancestors, and Emotion writes one <style> per rule: about 730 once the
// search builder is open, 68 ms a call there, and a role query calls it for each candidate and
// its ancestors after any change. What a test can observe through computed styles is whether an
// element is shown (Testing Library's role queries and toBeVisible: display none, visibility,
// opacity) and whether it takes clicks (user-event: pointer-events). So the test setup
// (setup.ts) lets Emotion's rules reach jsdom with those declarations only, and a rule with none
// of them reaches it empty. Dropping a display other than none can only turn an element that
// was shown into one that is hidden, never the reverse, so no test can pass on an element the
// real styles hide.
const SEEN_BY_TESTS = /^\s*(display\s*:\s*none|visibility\s*:|opacity\s*:|pointer-events\s*:)/i;

/** The rule with only the declarations above; blocks and at-rules left empty are removed. */
export function visibilityOnly(rule: string): string {
  let out = rule.replace(/([^{};]*)\{([^{}]*)\}/g, (_, selector: string, body: string) => {
    const kept = body.split(';').filter((declaration) => SEEN_BY_TESTS.test(declaration));
    return kept.length > 0 ? `${selector}{${kept.join(';')};}` : '';
  });
  // An @media or @supports whose rules were all dropped.
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(/[^{};]*\{\s*\}/g, '');
  }
  return out;
}
