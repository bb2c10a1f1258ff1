// SPDX-License-Identifier: MIT
// Everything the core assumed or left out, as it wrote it.

export function Notes({ lines }: { lines: string[] }) {
  const unique = [...new Set(lines)];
  if (unique.length === 0) return null;
  return (
    <section class="notes" data-testid="assumptions">
      <h2>What fitcheck assumed</h2>
      <ul>
        {unique.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
