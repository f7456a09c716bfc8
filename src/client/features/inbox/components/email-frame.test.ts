import { describe, expect, test } from 'vitest';
import { emailFrameDocument } from './email-frame';

describe('emailFrameDocument', () => {
  test.each([
    [
      '<!doctype html><html><body><a href="x">x</a></body></html>',
      '<!doctype html><html><head><base target="_blank"></head><body><a href="x">x</a></body></html>',
    ],
    [
      '<html lang="en"><head><title>t</title></head><body></body></html>',
      '<html lang="en"><head><base target="_blank"><title>t</title></head><body></body></html>',
    ],
    ['<p>Hello</p>', '<base target="_blank"><p>Hello</p>'],
    // A <header> is no <head>.
    ['<header>h</header>', '<base target="_blank"><header>h</header>'],
  ])('%s', (html, expected) => {
    expect(emailFrameDocument(html)).toBe(expected);
  });
});
