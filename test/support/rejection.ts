import { expect } from "vitest";

/**
 * The error a promise rejects with, checked to be of the given class (the test fails when the promise
 * resolves or rejects with anything else).
 */
export async function rejectionOf<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
