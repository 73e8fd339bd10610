// SQL `LIKE '%x%'` as SQLite evaluates it: `%` and `_` inside the needle stay wildcards (the server
// does not escape them) and matching is case-insensitive.

export function sqlLikeContains(needle: string): (haystack: string | null) => boolean {
  const pattern = [...needle]
    .map((char) => (char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const regex = new RegExp(pattern, 'is');
  return (haystack) => haystack !== null && regex.test(haystack);
}
