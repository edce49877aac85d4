import * as v from "valibot";
import { body, plainLine } from "../fields.ts";
import { TemplateDesign } from "./template.ts";

const TemplateId = v.pipe(v.string("templateId is required"), v.nonEmpty("templateId is required"), v.maxLength(64, "templateId is invalid"));

export const AddTemplateBody = body({ template: TemplateDesign });

export const UpdateTemplateBody = body({
  template: v.object({
    ...TemplateDesign.entries,
    templateId: TemplateId,
    isShared: v.optional(v.boolean("isShared must be true or false")),
  }),
});

export const TemplateIdBody = body({ templateId: TemplateId });

export const TemplateSetBody = body({
  templateSet: v.pipe(v.array(TemplateId, "templateSet must be a list of template ids"), v.maxLength(200, "templateSet has too many ids")),
});

export const CategoryBody = body({
  name: v.pipe(v.string("name is required"), plainLine, v.trim(), v.nonEmpty("name is required"), v.maxLength(40, "name is too long")),
});

export const PageQuery = v.object({
  lastTemplateId: v.optional(v.pipe(v.string(), v.maxLength(64, "lastTemplateId is invalid"))),
});

export const StandardTemplatesQuery = v.object({
  category: v.optional(v.pipe(v.string(), v.maxLength(60, "category is invalid"))),
});

/** Templates per page of the paged lists. */
export const TEMPLATES_PAGE_SIZE = 24;
