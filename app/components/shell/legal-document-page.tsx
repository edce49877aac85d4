import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { inlineParts, type LegalBlock, type LegalDocument } from "../../legal/document.ts";
import { DocumentPage } from "./document-page.tsx";

function Inline({ markup }: { markup: string }) {
  return (
    <>
      {inlineParts(markup).map((part, index) => {
        if ("href" in part) {
          return part.href.startsWith("/") ? (
            <Link key={index} to={part.href}>
              {part.text}
            </Link>
          ) : (
            <a key={index} href={part.href}>
              {part.text}
            </a>
          );
        }
        return part.bold ? <strong key={index}>{part.text}</strong> : <span key={index}>{part.text}</span>;
      })}
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  if ("paragraph" in block) {
    return (
      <p>
        <Inline markup={block.paragraph} />
      </p>
    );
  }
  return (
    <ul>
      {block.list.map((item, index) => (
        <li key={index}>
          <Inline markup={item} />
        </li>
      ))}
    </ul>
  );
}

/** A legal document (app/legal) as a page, with a link to its PDF. */
export function LegalDocumentPage({ document, pdf }: { document: LegalDocument; pdf?: { href: string; label: string } }) {
  const lead: ReactNode = pdf ? (
    <>
      {document.lead}{" "}
      <a href={pdf.href} download>
        {pdf.label}
      </a>
    </>
  ) : (
    document.lead
  );
  return (
    <DocumentPage
      title={document.title}
      updated={document.updated}
      lead={lead}
      sections={document.sections.map((section) => ({
        id: section.id,
        title: section.title,
        body: section.blocks.map((block, index) => <Block key={index} block={block} />),
      }))}
    />
  );
}
