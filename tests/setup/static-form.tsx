import { createElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { type Control, type FieldValues, useForm } from 'react-hook-form';
import { Form } from '@/components/ui/form';

type HarnessProps = {
  values: FieldValues;
  field: (control: Control<FieldValues>) => ReactNode;
  errors: Partial<Record<string, string>>;
};

function Harness({ values, field, errors }: HarnessProps): ReactElement {
  const form = useForm<FieldValues>({ defaultValues: values });
  for (const [name, message] of Object.entries(errors)) form.setError(name, { message });
  return <Form {...form}>{field(form.control)}</Form>;
}

/**
 * renderInForm renders `field(control)` inside a react-hook-form `Form` started from `values`, to
 * static HTML (the client's component tests run in Node, without a DOM). `errors` are set before
 * the field renders, as a failed submit or request would: field names, or 'root' for the form's.
 */
export function renderInForm<T extends FieldValues>(
  values: T,
  field: (control: Control<T>) => ReactNode,
  errors: Partial<Record<string, string>> = {},
): string {
  return renderToStaticMarkup(
    createElement(Harness, {
      values,
      field: field as unknown as HarnessProps['field'],
      errors,
    }),
  );
}

/** textOf is the visible text of static HTML: tags dropped, spaces collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
