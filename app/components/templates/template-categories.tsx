import * as Dialog from "@radix-ui/react-dialog";
import { useState, type FormEvent } from "react";
import { Spinner } from "../spinner.tsx";
import { useToast } from "../shell/toast.tsx";
import { addTemplateCategory, deleteTemplateCategory, reasonOf, type TemplateCategory } from "./template-requests.ts";
import { DialogActions } from "../dialog-actions.tsx";

/** Category chips: "All" and every category; the pressed one filters the gallery. */
export function CategoryFilter({
  categories,
  selected,
  onSelect,
}: {
  categories: TemplateCategory[];
  selected: string | null;
  onSelect(name: string | null): void;
}) {
  return (
    <div className="category-chips" role="group" aria-label="Filter by category">
      <button type="button" className="chip" aria-pressed={selected === null} onClick={() => onSelect(null)}>
        All
      </button>
      {categories.map((category) => (
        <button
          key={category.id}
          type="button"
          className="chip"
          aria-pressed={selected?.toLowerCase() === category.name.toLowerCase()}
          onClick={() => onSelect(category.name)}
        >
          {category.name}
        </button>
      ))}
    </div>
  );
}

/** The user's own categories: add and delete (standard categories are everyone's and stay). */
export function ManageCategories({
  categories,
  onAdded,
  onDeleted,
}: {
  categories: TemplateCategory[];
  onAdded(category: TemplateCategory): void;
  onDeleted(category: TemplateCategory): void;
}) {
  const { toast } = useToast();
  const [name, setName] = useState("");
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const own = categories.filter((category) => !category.isStandard);

  async function add(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || adding) return;
    setAdding(true);
    setProblem(null);
    try {
      const category = await addTemplateCategory(trimmed);
      onAdded(category);
      setName("");
      toast({ title: `Category "${category.name}" added`, kind: "success" });
    } catch (error) {
      const message = `Unable to add template category: ${reasonOf(error)}`;
      setProblem(message);
      toast({ title: message, kind: "error" });
    } finally {
      setAdding(false);
    }
  }

  async function remove(category: TemplateCategory) {
    setDeleting(category.id);
    try {
      await deleteTemplateCategory(category.id);
      onDeleted(category);
      toast({ title: `Category "${category.name}" deleted`, kind: "success" });
    } catch (error) {
      toast({ title: `Unable to delete template category: ${reasonOf(error)}`, kind: "error" });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <Dialog.Root onOpenChange={() => setProblem(null)}>
      <Dialog.Trigger asChild>
        <button type="button" className="button button--ghost">
          Manage categories
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog__title">Your categories</Dialog.Title>
          <Dialog.Description className="dialog__text">
            Group your templates with your own categories. Standard categories cannot be changed.
          </Dialog.Description>
          {own.length === 0 ? (
            <p className="muted">You have no categories of your own yet.</p>
          ) : (
            <ul className="category-list">
              {own.map((category) => (
                <li key={category.id} className="category-list__item">
                  <span>{category.name}</span>
                  <button
                    type="button"
                    className="chip-button chip-button--danger"
                    aria-label={`Delete category ${category.name}`}
                    disabled={deleting === category.id}
                    onClick={() => void remove(category)}
                  >
                    {deleting === category.id ? <Spinner /> : null}
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form className="category-form" onSubmit={add} noValidate>
            <label className="field__label" htmlFor="new-category-name">
              New category
            </label>
            <div className="category-form__row">
              <input
                id="new-category-name"
                className="field__input"
                value={name}
                maxLength={40}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? "new-category-problem" : undefined}
                onChange={(event) => setName(event.target.value)}
              />
              <button type="submit" className="button button--primary" disabled={adding || !name.trim()}>
                {adding ? <Spinner /> : null}
                Add
              </button>
            </div>
            {problem ? (
              <p className="field__error" id="new-category-problem" role="alert">
                {problem}
              </p>
            ) : null}
          </form>
          <DialogActions close="Done" />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
