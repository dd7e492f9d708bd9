"""Images from engine state (Pillow).  Never changes state; never imports Discord."""
