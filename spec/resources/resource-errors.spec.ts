import 'reflect-metadata';
import {
  BootstrapErrorCode,
  Injectable,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
} from 'mcp-reflect';
import { bootstrapFailure } from '../support/bootstrap';

/** Bootstraps a fresh application around `providers` and returns the error it fails with. */

describe('bootstrap errors of resources and prompts', () => {
  describe(BootstrapErrorCode.DuplicateResource, () => {
    it('names both methods that declare the same URI', async () => {
      @Injectable()
      class Settings {
        @Resource('config://app')
        settings(): string {
          return 'a';
        }
      }
      @Injectable()
      class Legacy {
        @Resource('config://app')
        legacySettings(): string {
          return 'b';
        }
      }
      const error = await bootstrapFailure(Settings, Legacy);
      expect(error.code).toBe(BootstrapErrorCode.DuplicateResource);
      expect(error.message).toBe(
        "Cannot register resource URI 'config://app': both Settings.settings and Legacy.legacySettings declare it, and it must be unique in a server.\n" +
          'Fix: give one of them another URI (@Resource(uri)).',
      );
    });

    it('names both methods that use the same resource name', async () => {
      @Injectable()
      class Docs {
        @Resource('docs://readme', { name: 'doc' })
        readme(): string {
          return 'readme';
        }

        @Resource('docs://changelog', { name: 'doc' })
        changelog(): string {
          return 'changelog';
        }
      }
      const error = await bootstrapFailure(Docs);
      expect(error.code).toBe(BootstrapErrorCode.DuplicateResource);
      expect(error.message).toBe(
        "Cannot register resource name 'doc': both Docs.readme and Docs.changelog declare it, and it must be unique in a server.\n" +
          'Fix: give one of them another name ({ name }).',
      );
    });

    it('counts resource templates and resources as one namespace', async () => {
      @Injectable()
      class Users {
        @Resource('users://me', { name: 'user' })
        me(): string {
          return 'me';
        }

        @ResourceTemplate('users://{id}')
        user(@Param('id') id: string): string {
          return id;
        }
      }
      const error = await bootstrapFailure(Users);
      expect(error.code).toBe(BootstrapErrorCode.DuplicateResource);
      expect(error.message).toBe(
        "Cannot register resource name 'user': both Users.me and Users.user declare it, and it must be unique in a server.\n" +
          'Fix: give one of them another name ({ name }).',
      );
    });
  });

  describe(BootstrapErrorCode.InvalidResourceUri, () => {
    it('rejects a resource URI without a scheme', async () => {
      @Injectable()
      class Broken {
        @Resource('not a uri')
        bad(): string {
          return 'x';
        }
      }
      const error = await bootstrapFailure(Broken);
      expect(error.code).toBe(BootstrapErrorCode.InvalidResourceUri);
      expect(error.message).toBe(
        "Cannot register resource 'bad' (Broken.bad): 'not a uri' is not an absolute URI (RFC 3986), e.g. 'config://app' or 'file:///notes.txt'.\n" +
          'Fix: give @Resource() a URI with a scheme.',
      );
    });

    it('says where the URI goes when it is given in the options, as other libraries take it', async () => {
      @Injectable()
      class Migrated {
        // @ts-expect-error: the URI is the first argument (a migration from mcp-nest writes it in the options).
        @Resource({ uri: 'config://app', name: 'config' })
        config(): string {
          return 'x';
        }
      }
      const error = await bootstrapFailure(Migrated);
      expect(error.code).toBe(BootstrapErrorCode.InvalidResourceUri);
      expect(error.message).toBe(
        "Cannot register resource 'config' (Migrated.config): @Resource() takes the URI as its first argument, a string, and was given an object.\n" +
          "Fix: write @Resource('config://app', { …the other options }), the options second.",
      );
    });

    it('rejects a malformed URI template', async () => {
      @Injectable()
      class Broken {
        @ResourceTemplate('users://{id')
        user(@Param('id') id: string): string {
          return id;
        }
      }
      const error = await bootstrapFailure(Broken);
      expect(error.code).toBe(BootstrapErrorCode.InvalidResourceUri);
      expect(error.message).toBe(
        "Cannot register resource template 'user' (Broken.user): 'users://{id' is not a valid RFC 6570 URI template (Unclosed template expression).\n" +
          "Fix: write variables as {name}, e.g. 'users://{id}/profile'.",
      );
      expect(error.cause).toBeInstanceOf(Error);
    });
  });

  describe(BootstrapErrorCode.TemplateParamMismatch, () => {
    it('names the parameter and the variables the template has', async () => {
      @Injectable()
      class Users {
        @ResourceTemplate('users://{id}/profile')
        profile(@Param('id') id: string, @Param('name') name: string): string {
          return `${id} ${name}`;
        }
      }
      const error = await bootstrapFailure(Users);
      expect(error.code).toBe(BootstrapErrorCode.TemplateParamMismatch);
      expect(error.message).toBe(
        "Cannot build resource template 'profile' (Users.profile): parameter 'name' is not a variable of the URI template, which has {id}.\n" +
          "Fix: name the parameter after a template variable (@Param('id')), or add {name} to the template.",
      );
    });

    it('says when the template has no variables at all', async () => {
      @Injectable()
      class Users {
        @ResourceTemplate('users://all')
        all(@Param('page') page: string): string {
          return page;
        }
      }
      const error = await bootstrapFailure(Users);
      expect(error.code).toBe(BootstrapErrorCode.TemplateParamMismatch);
      expect(error.message).toBe(
        "Cannot build resource template 'all' (Users.all): parameter 'page' is not a variable of the URI template, which has no variables.\n" +
          "Fix: name the parameter after a template variable (@Param('id')), or add {page} to the template.",
      );
    });
  });

  describe(BootstrapErrorCode.DuplicatePrompt, () => {
    it('names both methods that use the same prompt name', async () => {
      @Injectable()
      class Reviews {
        @Prompt()
        review(): string {
          return 'a';
        }
      }
      @Injectable()
      class MoreReviews {
        @Prompt({ name: 'review' })
        codeReview(): string {
          return 'b';
        }
      }
      const error = await bootstrapFailure(Reviews, MoreReviews);
      expect(error.code).toBe(BootstrapErrorCode.DuplicatePrompt);
      expect(error.message).toBe(
        "Cannot register prompt 'review': both Reviews.review and MoreReviews.codeReview use that name, and prompt names must be unique in a server.\n" +
          "Fix: name one of them explicitly, e.g. @Prompt({ name: 'review_2' }).",
      );
    });
  });
});
