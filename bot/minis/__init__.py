"""The A&A Miniatures front: commands answer through these modules."""
