/**
 * Names for the statements Prisma sends, so that each pooled connection parses and plans a
 * statement once and then only binds and runs it (ADR 106). The same SQL always gets the same
 * name in a process, as `pg` requires. Only the first `max` texts are named: a list of values
 * spelt out (`IN ($1, $2, …)`) makes a new text for each length, and each named statement
 * stays in every connection that ran it; past the limit, a statement is sent unnamed as before.
 */
export function statementNames(max = 1_000): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return (query) => {
    let name = names.get(query.sql);
    if (name === undefined && names.size < max) names.set(query.sql, (name = `prisma_${names.size + 1}`));
    // `pg` sends a statement without a name (parsed every time) when its name is empty.
    return name ?? "";
  };
}
