// Turns the controller's XML text into a validated answer. Lives here, not in protocol, because it
// needs fast-xml-parser; the schema it applies is protocol's.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  CONTROLLER_MAX_RESPONSE_BYTES,
  readControllerAnswer,
  type ControllerAnswer,
  type ControllerOperation,
} from '@deposito/protocol/controller/index';
import { ControllerMalformedResponseError } from './controller-errors';

const parser = new XMLParser({
  ignoreAttributes: true,
  // Entities are never expanded: no entity-expansion attacks, and element text is taken as written.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/**
 * Parses and validates a controller answer. Throws ControllerMalformedResponseError on anything that
 * is not a well-formed, schema-valid answer (to `expected`, when given); never anything else.
 */
export function parseControllerXml(
  text: string,
  expected?: ControllerOperation,
  maxBytes: number = CONTROLLER_MAX_RESPONSE_BYTES,
): ControllerAnswer {
  const operation = expected ?? 'getLockersState';
  const malformed = (message: string) =>
    new ControllerMalformedResponseError(operation, `malformed controller answer: ${message}`);
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw malformed(`larger than ${maxBytes} bytes`);
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw malformed('document type declarations are not accepted');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw malformed(`${valid.err.msg} (line ${valid.err.line})`);
  let tree: unknown;
  try {
    tree = parser.parse(text);
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : String(error));
  }
  const read = readControllerAnswer(tree);
  if (!read.ok) throw malformed(read.message);
  if (expected && read.answer.operation !== expected) {
    throw malformed(`answer to ${read.answer.operation}, expected ${expected}`);
  }
  return read.answer;
}
