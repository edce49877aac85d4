/**
 * Writes public/privacy-policy.pdf and public/affiliate-agreement.pdf (served statically, linked
 * from the terms) from the same text as the pages (app/legal). Run it after changing that text:
 *
 *   npx node scripts/generate-legal-pdfs.ts
 *
 * The output is reproducible (dates from the documents' "updated", no random ids), so
 * regenerating without edits leaves the committed files unchanged; a unit test checks that.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { AFFILIATE_AGREEMENT } from "../app/legal/affiliate-agreement.ts";
import { AFFILIATE_AGREEMENT_PDF, inlineParts, PRIVACY_POLICY_PDF, type LegalDocument } from "../app/legal/document.ts";
import { PRIVACY_POLICY } from "../app/legal/privacy-policy.ts";
import { Flow, footers, MUTED, type Fonts } from "./pdf/layout.ts";

export const LEGAL_PDFS = [
  { path: PRIVACY_POLICY_PDF, document: PRIVACY_POLICY, subject: "How Pinboard Studio handles personal data, under the law of England and Wales." },
  {
    path: AFFILIATE_AGREEMENT_PDF,
    document: AFFILIATE_AGREEMENT,
    subject: "The terms of the Pinboard Studio affiliate programme, under the law of the Netherlands.",
  },
] as const;

/** Page markup to the layout's: bold stays `**bold**`; a link keeps its text, with an outside address after it. */
function pdfText(markup: string): string {
  return inlineParts(markup)
    .map((part) => {
      if ("href" in part) return part.href.startsWith("https://") ? `${part.text} (${part.href})` : part.text;
      return part.bold ? `**${part.text}**` : part.text;
    })
    .join("");
}

export async function buildLegalPdf(document: LegalDocument, subject: string): Promise<Uint8Array> {
  const revised = new Date(`${document.updated} 09:00:00 GMT`);
  if (Number.isNaN(revised.getTime())) throw new Error(`"${document.updated}" is not a date`);
  const doc = await PDFDocument.create();
  doc.setTitle(`${document.title} | Pinboard Studio`, { showInWindowTitleBar: true });
  doc.setAuthor("Pinboard Studio");
  doc.setSubject(subject);
  doc.setCreator("Pinboard Studio");
  doc.setProducer("Pinboard Studio (pdf-lib)");
  doc.setLanguage("en-GB");
  doc.setCreationDate(revised);
  doc.setModificationDate(revised);
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
  };

  const flow = new Flow(doc, fonts, `Pinboard Studio  |  ${document.title}`);
  flow.newPage();
  flow.section(document.title, "Pinboard Studio");
  flow.paragraph(`Last updated: ${document.updated}`, { size: 9.5, color: MUTED });
  flow.paragraph(document.lead);
  for (const section of document.sections) {
    flow.subheading(section.title);
    for (const block of section.blocks) {
      if ("paragraph" in block) flow.paragraph(pdfText(block.paragraph));
      else flow.bullets(block.list.map(pdfText));
    }
  }
  footers(doc, fonts, `Pinboard Studio  |  ${document.title}`, false);
  return doc.save({ useObjectStreams: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { path, document, subject } of LEGAL_PDFS) {
    const output = fileURLToPath(new URL(`../public${path}`, import.meta.url));
    const bytes = await buildLegalPdf(document, subject);
    await writeFile(output, bytes);
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    console.log(`wrote ${output}: ${pages} pages, ${(bytes.length / 1024).toFixed(1)} KB`);
  }
}
