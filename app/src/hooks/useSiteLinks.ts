// The header's external links (Discord, Support) from the server's configuration
// (DISCORD_URL, SUPPORT_URL through /api/config, cached with the Firebase settings so
// they show offline too). null hides the item.
import { useEffect, useState } from 'react';
import { loadClientConfig } from '../auth/firebase';

export interface SiteLinks {
  discordUrl: string | null;
  supportUrl: string | null;
}

const NONE: SiteLinks = { discordUrl: null, supportUrl: null };

export function useSiteLinks(): SiteLinks {
  const [links, setLinks] = useState<SiteLinks>(NONE);
  useEffect(() => {
    let live = true;
    loadClientConfig().then(
      // `?? null`: a config cached by a build from before the links has neither.
      (config) => {
        if (live) setLinks({ discordUrl: config.discordUrl ?? null, supportUrl: config.supportUrl ?? null });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return links;
}
