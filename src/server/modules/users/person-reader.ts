import type { Person } from '../../../shared/contracts/rotations';
import type { FieldCipher } from '../../crypto/field-crypto';
import { type PersonRow, toPerson } from './user-repository';

/** PersonReader decrypts a user row into a Person, once per user id for its lifetime. */
export type PersonReader = (row: PersonRow) => Person;

/**
 * personReader returns a reader that decrypts each user once; make one per request. `known`
 * people (the signed-in user, already decrypted by the session hook) are not decrypted again.
 */
export function personReader(cipher: FieldCipher, known: readonly Person[] = []): PersonReader {
  const cache = new Map<number, Person>(
    known.map((p) => [p.id, { id: p.id, name: p.name, email: p.email, phone: p.phone ?? null }]),
  );
  return (row) => {
    let person = cache.get(row.id);
    if (!person) {
      person = toPerson(row, cipher);
      cache.set(row.id, person);
    }
    return person;
  };
}
