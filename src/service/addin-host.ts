/**
 * Serves the built Excel add-in (dist/addin) on the API's origin, and /manifest.xml with the
 * development origin (https://localhost:3000) replaced by the origin the request came to.
 */
import fastifyStatic from "@fastify/static";
import { FastifyInstance } from "fastify";
import * as fs from "node:fs";
import { fail } from "./problem";

export const DEV_ORIGIN = "https://localhost:3000";

export async function addinRoutes(
  app: FastifyInstance,
  options: { addinDir: string; manifestFile?: string }
): Promise<void> {
  if (!fs.existsSync(options.addinDir)) {
    app.log.warn(
      `add-in directory ${options.addinDir} does not exist; build it with npm run build:addin`
    );
  }
  await app.register(fastifyStatic, {
    root: options.addinDir,
    prefix: "/",
    index: ["taskpane.html"],
    wildcard: true,
  });
  app.get("/manifest.xml", { schema: { hide: true } }, async (request, reply) => {
    const file = options.manifestFile;
    if (!file || !fs.existsSync(file))
      throw fail(
        "Not Found",
        "manifest.xml is not available: the add-in manifest file is missing."
      );
    const origin = `${request.protocol}://${request.host}`;
    const xml = fs.readFileSync(file, "utf8").split(DEV_ORIGIN).join(origin);
    return reply.type("application/xml").send(xml);
  });
}
