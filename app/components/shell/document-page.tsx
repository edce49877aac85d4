import type { ReactNode } from "react";

export interface DocumentSection {
  /** The anchor: /help#credits links straight to the section. */
  id: string;
  title: string;
  body: ReactNode;
}

interface DocumentPageProps {
  title: string;
  /** When the text last changed (legal pages), e.g. "22 November 2026". */
  updated?: string;
  lead: ReactNode;
  sections: DocumentSection[];
}

/** A long read with a table of contents: the help centre and the legal pages. */
export function DocumentPage({ title, updated, lead, sections }: DocumentPageProps) {
  return (
    <main className="page prose">
      <h1>{title}</h1>
      {updated ? <p className="prose__updated">Last updated: {updated}</p> : null}
      <p className="lead">{lead}</p>
      <nav className="toc" aria-labelledby="toc-title">
        <h2 id="toc-title">On this page</h2>
        <ul>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {sections.map((section) => (
        <section key={section.id} aria-labelledby={section.id}>
          <h2 id={section.id}>{section.title}</h2>
          {section.body}
        </section>
      ))}
    </main>
  );
}
