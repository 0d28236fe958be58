// Chromium's DevTools virtual authenticator (the WebAuthn domain of the DevTools protocol): a platform
// authenticator that keeps discoverable credentials and verifies the user without asking, so a passkey can
// be registered and used in a headless browser. For the console's browser tests and its screenshots.

/**
 * Adds one to the page's target: `credentials()` lists what it holds (id, rpId, signCount, ...).
 * @param {import("puppeteer-core").Page} page
 */
export async function addVirtualAuthenticator(page) {
  const cdp = await page.createCDPSession();
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    authenticatorId,
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}
