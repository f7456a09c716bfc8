import type { TestAlertPreview } from '@shared/contracts/integrations';

/*
 * The warning "Send test alert" gives before it pages anyone (decision 261): whom the test
 * incident pages now and why ("This pages Noah Kim, on call for Payments now."). Pure.
 */

type Paged = TestAlertPreview['pages'][number];

/** whyText reads why a step reaches a person: 'on call for Payments now'. */
function whyText(reason: string, preview: TestAlertPreview): string {
  const rotation = preview.rotation ? ` for ${preview.rotation.name}` : '';
  switch (reason) {
    case 'holder':
      return `on call${rotation} now`;
    case 'next on call':
      return `next on call${rotation}`;
    case 'backup':
      return `backup${rotation}`;
    case 'member':
      return preview.rotation ? `a member of ${preview.rotation.name}` : 'a member of its rotation';
    default:
      return `named in ${preview.policyName}`;
  }
}

const personText = (person: Paged, preview: TestAlertPreview) =>
  person.reasons.length > 0
    ? `${person.name}, ${whyText(person.reasons[0], preview)}`
    : person.name;

const inWords = (items: readonly string[]) =>
  items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join('; ')} and ${items[items.length - 1]}`;

/**
 * testAlertWarning returns what the confirmation says: whom the test incident pages now and, when
 * the policy's first steps reach nobody, from which step; or that it reaches nobody now.
 */
export function testAlertWarning(preview: TestAlertPreview): string {
  if (preview.step === null || preview.pages.length === 0) {
    return `This pages nobody now: no step of ${preview.policyName} reaches anyone. The test incident stays open until someone acknowledges or resolves it.`;
  }
  const who = inWords(preview.pages.map((p) => personText(p, preview)));
  const from =
    preview.step > 1
      ? ` (step ${preview.step} of ${preview.policyName}: the steps before it reach nobody now)`
      : '';
  return `This pages ${who}${from}.`;
}
