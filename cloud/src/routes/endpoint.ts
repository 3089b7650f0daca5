import type { ApiRoute } from '@deposito/protocol';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { parseRequest } from '../errors';
import { sendJson } from '../json-answer';

type Part<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** A request's parts, each parsed with the route's protocol schema. */
export interface EndpointInput<Route extends ApiRoute> {
  params: Part<Route['request']['params']>;
  query: Part<Route['request']['query']>;
  body: Part<Route['request']['body']>;
}

/** Answers with the route's response shape; or writes the response itself (HTML pages) and returns nothing. */
export type EndpointHandler<Route extends ApiRoute> = (
  input: EndpointInput<Route>,
  req: Request,
  res: Response,
) => Promise<z.input<Route['response']> | void>;

/** One endpoint of protocol's catalogue and the code that answers it. */
export interface Endpoint {
  route: ApiRoute;
  handler: RequestHandler;
}

/**
 * Binds a handler to a catalogue route: every part of the request is parsed with the route's
 * schema before the handler runs (a 400 with the stable validation code otherwise), and the
 * result is sent with the route's success status.
 */
export function endpoint<const Route extends ApiRoute>(
  route: Route,
  handle: EndpointHandler<Route>,
): Endpoint {
  return {
    route,
    handler: async (req, res) => {
      const { params, query, body } = route.request;
      const input = {
        params: params ? parseRequest(params, 'params', req.params) : undefined,
        query: query ? parseRequest(query, 'query', req.query) : undefined,
        body: body ? parseRequest(body, 'body', req.body ?? {}) : undefined,
      } as EndpointInput<Route>;
      const result = await handle(input, req, res);
      if (result !== undefined && !res.headersSent) sendJson(res, route.successStatus ?? 200, result);
    },
  };
}
