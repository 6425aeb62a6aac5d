/**
 * The real model library in ../shared/webllm-test-model under WebLLM's own `verifyIntegrity`: its
 * README's sha256 (hex), written as an SRI hash, passes the file; the file with one byte changed
 * is refused with WebLLM's `IntegrityError`, which the error mapping words as 'integrity-failed'.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntegrityError, verifyIntegrity } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { toWebLlmError } from '../../src/llm/webllm-errors';
import { sharedPath } from '../support/shared-data';

const LIBRARY = 'Qwen2-0.5B-Instruct-q4f32_1-ctx4k_cs1k-webgpu.wasm';
/** The sha256 the folder's README gives for the library (copied from binary-mlc-llm-libs at commit 9ee759c8…). */
const README_SHA256_HEX = '338ab000a62274cb47fa0696aa244d4b1d73db4e6f144b429915d1cfe44d2e6a';
const SRI = `sha256-${Buffer.from(README_SHA256_HEX, 'hex').toString('base64')}`;

const path = join(sharedPath('webllm-test-model'), LIBRARY);

describe.skipIf(!existsSync(path) && `${path} is absent: skipping the real library's integrity check`)(
  'the real test model library',
  () => {
    it('passes under the README’s hash and is refused with one byte changed', async () => {
      const bytes = new Uint8Array(readFileSync(path));
      await expect(verifyIntegrity(bytes.slice().buffer, SRI, `http://127.0.0.1/${LIBRARY}`, 'error')).resolves.toBeUndefined();
      const middle = bytes.length >> 1;
      bytes[middle] = bytes[middle]! ^ 0x01;
      const refused = await verifyIntegrity(bytes.buffer, SRI, `http://127.0.0.1/${LIBRARY}`, 'error').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(IntegrityError);
      expect(toWebLlmError(refused, { phase: 'load', modelId: 'Qwen2-0.5B-test' }).code).toBe('integrity-failed');
    });
  },
);
