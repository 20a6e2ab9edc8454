/** Unauthenticated routes: health, the OpenAPI document, and the pages behind problem `type` URIs. */
import { FastifyPluginAsync } from "fastify";
import { fail, PROBLEM_MEANING, PROBLEM_TITLES, slugOf, STATUS_OF, titleOfSlug } from "../problem";

export const metaApi: FastifyPluginAsync<{ optimizer: boolean; startedAt: number }> = async (
  app,
  info
) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["meta"],
        summary: "Liveness; no key needed.",
        response: {
          200: {
            type: "object",
            properties: {
              status: { type: "string", enum: ["ok"] },
              optimizer: { type: "boolean" },
              uptimeSeconds: { type: "number" },
            },
          },
        },
      },
    },
    async () => ({
      status: "ok",
      optimizer: info.optimizer,
      uptimeSeconds: Math.round((Date.now() - info.startedAt) / 1000),
    })
  );

  app.get("/openapi.json", { schema: { hide: true } }, async () =>
    (app as unknown as { swagger(): unknown }).swagger()
  );

  app.get("/problems", { schema: { hide: true } }, async () =>
    PROBLEM_TITLES.map((t) => ({
      type: slugOf(t),
      title: t,
      status: STATUS_OF[t],
      meaning: PROBLEM_MEANING[t],
    }))
  );

  app.get<{ Params: { slug: string } }>(
    "/problems/:slug",
    { schema: { hide: true } },
    async (request) => {
      const title = titleOfSlug(request.params.slug);
      if (!title)
        throw fail(
          "Not Found",
          `No problem type "${request.params.slug}"; allowed: ${PROBLEM_TITLES.map(slugOf).join(", ")}.`
        );
      return { title, status: STATUS_OF[title], meaning: PROBLEM_MEANING[title] };
    }
  );
};
