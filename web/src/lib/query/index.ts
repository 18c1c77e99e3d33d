// The keyword query language in the browser: validation, keyword list and summary, and the
// search builder's naming rules. The server holds the matcher; both sides run the test vectors
// of internal/query/testdata/vectors.json.

export { BLANK_SEARCH_NOTICE, CODES, hasError, validateQuery } from './validate';
export type { Issue, Mode, Severity } from './validate';
export { keywordList, keywordSummary } from './keywords';
export { autoName, duplicateName, hasCopySuffix, MAX_NAME_LENGTH } from './names';
