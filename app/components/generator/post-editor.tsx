import { useId } from "react";
import type { DesignSettings } from "../../../contracts/content/design-settings.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { unmetNeedsSentence } from "../../../workers/domain/template-fit.ts";
import {
  changeColor,
  changeImage,
  changeTemplate,
  editPost,
  imageSlotCount,
  offerOf,
  postImages,
  type PostTextEdit,
} from "../../../workers/domain/generate.ts";
import { AiPicture } from "./ai-picture.tsx";
import { PostPreview } from "./post-preview.tsx";
import { cssColor } from "./colors.ts";

const random = () => Math.random();

/**
 * Everything the user can change on one post: its texts (title, description,
 * alt text, URL, URL text), template, colour and pictures. Every change shows
 * in the preview at once.
 */
export function PostEditor({
  post,
  templates,
  settings,
  extraImages,
  onChange,
}: {
  post: Post;
  /** Templates to switch to (the post's own stays available). */
  templates: Template[];
  settings: Pick<DesignSettings, "designColors">;
  /** More pictures to choose from (the user's uploads). */
  extraImages: string[];
  onChange(post: Post): void;
}) {
  const id = useId();
  const edit = (change: PostTextEdit) => onChange(editPost(post, change, random));
  const slots = Math.max(imageSlotCount(post.template), post.selectedImages.length);
  const choices = [...new Set([...postImages(post), ...extraImages])];
  const hasCurrentTemplate = templates.some((template) => template.templateId === post.templateType);
  const offer = offerOf(post);

  const text = (field: keyof PostTextEdit, label: string, max: number, multiline = false) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${field}`}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={`${id}-${field}`}
          className="field__input"
          rows={4}
          maxLength={max}
          value={post[field]}
          onChange={(event) => edit({ [field]: event.target.value })}
        />
      ) : (
        <input id={`${id}-${field}`} className="field__input" maxLength={max} value={post[field]} onChange={(event) => edit({ [field]: event.target.value })} />
      )}
    </div>
  );

  return (
    <div className="post-editor">
      <div className="post-editor__preview">
        <PostPreview post={post} alt={post.altText || post.title} urgent />
        <p className="muted small">File name: {post.fileName}</p>
      </div>
      <div className="post-editor__fields">
        {text("title", "Title", 500)}
        {text("description", "Description", 2000, true)}
        {text("altText", "Alt text", 500, true)}
        {text("url", "URL", 2048)}
        {text("URLText", "URL text", 200)}
        {text("price", "Price", 40)}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-template`}>
            Template
          </label>
          <select
            id={`${id}-template`}
            className="field__input"
            value={post.templateType}
            onChange={(event) => {
              const template = templates.find((candidate) => candidate.templateId === event.target.value);
              if (template) onChange(changeTemplate(post, template));
            }}
          >
            {!hasCurrentTemplate ? <option value={post.templateType}>{post.template?.title ?? "Current template"}</option> : null}
            {templates.map((template) => {
              // A template the post cannot fill is shown with what it lacks, and cannot be chosen (issue 13).
              const lacking = template.templateId === post.templateType ? "" : unmetNeedsSentence(template, offer);
              return (
                <option key={template.templateId} value={template.templateId} disabled={lacking !== ""}>
                  {lacking ? `${template.title} (${lacking.charAt(0).toLowerCase()}${lacking.slice(1)})` : template.title}
                </option>
              );
            })}
          </select>
        </div>
        <fieldset className="field post-editor__colors">
          <legend className="field__label">Colour</legend>
          <div className="swatches">
            {settings.designColors.map((color, index) => (
              <label key={index} className="swatch" style={{ background: cssColor(color) }}>
                <input
                  type="radio"
                  name={`${id}-color`}
                  className="visually-hidden"
                  checked={post.colorIndex === index}
                  onChange={() => onChange(changeColor(post, settings, index))}
                />
                <span className="visually-hidden">Colour {index + 1}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <AiPicture
          title={post.title}
          hasPicture={choices.length > 0}
          onPicture={(url) => onChange(changeImage({ ...post, allImages: [...post.allImages, url] }, 0, url))}
        />
        {Array.from({ length: slots }, (_, slot) => (
          <fieldset key={slot} className="field post-editor__images">
            <legend className="field__label">{slots > 1 ? `Picture ${slot + 1}` : "Picture"}</legend>
            <div className="image-choices">
              {choices.map((image, index) => (
                <label key={image} className="image-choice">
                  <input
                    type="radio"
                    name={`${id}-slot-${slot}`}
                    className="visually-hidden"
                    checked={post.selectedImages[slot] === image}
                    onChange={() => onChange(changeImage(post, slot, image))}
                  />
                  {/* biome-ignore lint/a11y/noRedundantAlt: the number tells several pictures apart ("Picture 2"): the word is part of that name, not a description of the element. */}
                  <img src={image} alt={`Picture ${index + 1}`} loading="lazy" />
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </div>
    </div>
  );
}
